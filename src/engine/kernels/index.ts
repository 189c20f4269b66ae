/** The engine's WGSL kernels, each beside its float64 reference (x.ts is a port of x.ref.ts). */
export { attentionForward, type AttentionOptions } from './attention.ts';
export { embeddingBackward, embeddingForward, tokensById } from './embedding.ts';
export { embeddingInt4Forward, type EmbeddingInt4Options } from './embedding-int4.ts';
export { logprobsBackward, logprobsForward } from './logprobs.ts';
export { MAX_ROWS_PER_THREAD, matmulForward, type MatmulOptions } from './matmul.ts';
export {
  MATMUL_BACKWARD_UNIFORMS,
  matmulBackwardBias,
  matmulBackwardInput,
  matmulBackwardWeight,
  type MatmulBackwardOptions,
  type MatmulBackwardUniform,
} from './matmul-backward.ts';
export { matmulInt4BackwardInput, matmulInt4Forward, type MatmulInt4BackwardInputOptions, type MatmulInt4Options } from './matmul-int4.ts';
export { rmsnormBackward, rmsnormBackwardWeight, rmsnormForward, type RmsnormBackwardOptions } from './rmsnorm.ts';
export { ropeCacheForward, ropeTable } from './rope.ts';
export { swigluBackward, swigluForward } from './swiglu.ts';
export { ceilDiv, type Dtype, type DtypeOptions } from './wgsl.ts';
export { attentionRef, type AttentionShape } from './attention.ref.ts';
export { embeddingBackwardRef, embeddingRef } from './embedding.ref.ts';
export { embeddingInt4Ref } from './embedding-int4.ref.ts';
export { entropyRef, logprobsBackwardRef, logprobsRef, logSoftmaxRef } from './logprobs.ref.ts';
export { matmulBackwardInputRef, matmulBackwardWeightRef, matmulRef } from './matmul.ref.ts';
export { matmulInt4BackwardInputRef, matmulInt4Ref } from './matmul-int4.ref.ts';
export { rmsnormBackwardRef, rmsnormRef } from './rmsnorm.ref.ts';
export { ropeRef } from './rope.ref.ts';
export { swigluBackwardRef, swigluRef } from './swiglu.ref.ts';
export type { Vec } from './ref-types.ts';
