/** The engine's WGSL kernels, each beside its float64 reference (x.ts is a port of x.ref.ts). */
export { attentionForward, attentionTrainingForward, type AttentionOptions } from './attention.ts';
export { attentionDecode, decodeLanes, type AttentionDecodeOptions } from './attention-decode.ts';
export { attentionBackwardKeyValue, attentionBackwardQuery } from './attention-backward.ts';
export { packedVisibility, type PackedBlock } from './attention-visibility.ts';
export { embeddingBackward, embeddingForward, tokensById } from './embedding.ts';
export { embeddingInt4Forward } from './embedding-int4.ts';
export { logprobsBackward, logprobsForward, logprobsThreads } from './logprobs.ts';
export { MAX_ROWS_PER_THREAD, matmulForward } from './matmul.ts';
export { matmulBackwardBias, matmulBackwardInput, matmulBackwardWeight, type MatmulBackwardOptions, type MatmulBackwardUniform } from './matmul-backward.ts';
export { matmulNormedRope, matmulNormedRows, matmulNormedSplit, matmulNormedSwiglu, type MatmulNormedOptions } from './matmul-normed.ts';
export { matmulNormedCpu } from './matmul-normed-cpu.ts';
export { matmulInt4BackwardInput, matmulInt4Forward } from './matmul-int4.ts';
export { rmsnormBackward, rmsnormBackwardWeight, rmsnormForward, rmsnormThreads } from './rmsnorm.ts';
export { ropeCacheBackward, ropeCacheForward, ropeTable } from './rope.ts';
export { NO_TOKEN, sampleTokens } from './sample-tokens.ts';
export { swigluBackward, swigluForward } from './swiglu.ts';
export { grid2d, header } from './wgsl.ts'; // for kernels outside this folder (optim/)
export { ceilDiv, type Dtype, type DtypeOptions } from './wgsl.ts';
export { attentionDecodeRef } from './attention-decode.ref.ts';
export { attentionBackwardRef, attentionForwardRef, attentionRef, type AttentionShape } from './attention.ref.ts';
export { embeddingBackwardRef, embeddingRef } from './embedding.ref.ts';
export { entropyRef, logprobsBackwardRef, logprobsRef, logSoftmaxRef } from './logprobs.ref.ts';
export { matmulBackwardInputRef, matmulBackwardWeightRef, matmulRef } from './matmul.ref.ts';
export { matmulNormedRef, matmulNormedSwigluRef } from './matmul-normed.ref.ts';
export { rmsnormBackwardRef, rmsnormRef } from './rmsnorm.ref.ts';
export { ropeBackwardRef, ropeRef } from './rope.ref.ts';
export { swigluBackwardRef, swigluRef } from './swiglu.ref.ts';
export type { Vec } from './ref-types.ts';
