/**
 * The Conductor on Baton's engine: a GpuModel and its tokenizer writing workflows, sampled under the
 * workflow constraint so that they always parse.
 */
export { createEngineConductor, type EngineConductorOptions } from './engine-conductor.ts';
export { workflowConstraintFor } from './constraint-cache.ts';
export { workflowTokenBound } from './workflow-token-bound.ts';
