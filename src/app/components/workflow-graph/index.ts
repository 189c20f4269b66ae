export { default as WorkflowGraph } from './workflow-graph.svelte';
export { layoutWorkflow } from './layout.ts';
