export { GpuModel, type Generation, type GenerateOptions, type LoadModelOptions } from './gpu-model.ts';
export { KvCache } from './kv-cache.ts';
export { createSampler, logSoftmax, seededUniform, type Sampled, type Sampler, type SamplingOptions } from './sampling.ts';
export type { ModelWeights } from './model-weights.ts';
