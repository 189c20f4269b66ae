export { GpuModel, type Generation, type GenerateOptions, type GroupGenerateOptions, type LoadModelOptions } from './gpu-model.ts';
export { KvCache } from './kv-cache.ts';
export { createSampler, logSoftmax, streamSeed, type Sampled, type Sampler, type SamplingOptions } from './sampling.ts';
export type { ModelWeights, WeightFormat } from './model-weights.ts';
export { EnginePolicy, type EngineGroupOptions, type EnginePolicyOptions, type TokenMasks } from './engine-policy.ts';
export { createRefKvCache, loadRefModel, refForward, refLogprobs } from './forward.ref.ts';
export type { RefForwardOptions, RefKvCache, RefLogprobOptions, RefModel } from './forward.ref.ts';
