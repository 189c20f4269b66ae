/** The models the CLI opens and writes: Dawn's WebGPU under Node, a model directory on it, the flags that name one, a random Conductor. */
export { MODEL_FLAGS, modelRefOf } from './model-flags.ts';
export { writeRandomConductor, type RandomConductorShape } from './random-conductor.ts';
export { createNodeGpu, openNodeModel, requestNodeAdapter, SWIFTSHADER_ICDS, type NodeGpu, type NodeModel, type NodeModelRef } from './webgpu.ts';
