/** The engine's WGSL kernels (each a port of its float64 reference in ../model/ops.ref.ts). */
export { attentionForward, type AttentionOptions } from './attention.ts';
export { embeddingForward } from './embedding.ts';
export { embeddingInt4Forward, type EmbeddingInt4Options } from './embedding-int4.ts';
export { logprobsForward } from './logprobs.ts';
export { MAX_ROWS_PER_THREAD, matmulForward, type MatmulOptions } from './matmul.ts';
export { matmulInt4Forward, type MatmulInt4Options } from './matmul-int4.ts';
export { rmsnormForward } from './rmsnorm.ts';
export { ropeCacheForward, ropeTable } from './rope.ts';
export { swigluForward } from './swiglu.ts';
export { ceilDiv, type Dtype, type DtypeOptions } from './wgsl.ts';
