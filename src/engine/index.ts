/**
 * Baton's WebGPU engine, its public face: a device made from a GPUAdapter the caller passes in
 * (navigator.gpu in a browser worker, Dawn under Node via src/node/models/webgpu.ts), then a GpuModel
 * loaded from a model directory's tensors (f32, f16 or int4 weights), with optional LoRA, for
 * logprobs, generation and batched group sampling; EnginePolicy puts it behind core's Policy, engineChat
 * answers a pool worker's chat, and GpuQueue has generations take turns on one GPU.
 */
export { createEngineDevice, EngineDevice, MemoryMeter, type Capabilities } from './device/index.ts';
export {
  createSampler,
  engineChat,
  EnginePolicy,
  GpuModel,
  GpuQueue,
  KvCache,
  streamSeed,
  type Generation,
  type Sampled,
  type SamplingOptions,
  type TokenMasks,
  type WeightFormat,
} from './runtime/index.ts';
export type { Dtype } from './kernels/index.ts';
