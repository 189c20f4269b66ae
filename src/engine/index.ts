/**
 * Baton's WebGPU engine, its public face: a device made from a GPUAdapter the caller passes in
 * (navigator.gpu in a browser worker, Dawn under Node via src/node/webgpu.ts), then a GpuModel
 * loaded from a model directory's tensors, with optional LoRA, for logprobs and generation.
 */
export { createEngineDevice, EngineDevice, type Capabilities } from './device/index.ts';
export {
  createSampler,
  GpuModel,
  KvCache,
  type Generation,
  type GenerateOptions,
  type LoadModelOptions,
  type Sampled,
  type SamplingOptions,
} from './runtime/index.ts';
export type { Dtype } from './kernels/index.ts';
