export { default as WorkflowGraph } from './workflow-graph.svelte';
export { layoutWorkflow, type GraphLayout } from './layout.ts';
