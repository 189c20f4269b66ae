/**
 * What every dispatch of one training pass shares: the micro-batch packed into T rows (packed-batch.ts:
 * a prompt shared by several sequences once, then each sequence's own rows), each row with its RoPE
 * position and the keys it attends (its visibility rule); the rows' keys and values in plain (T, KV, D)
 * buffers, in row order; the model's weights and the adapter in use (undefined: the base alone); and
 * where the gradients of what trains go (undefined: nothing trains in this pass, as in the KL
 * reference's).
 */
import type { ModelConfig } from '../model/index.ts';
import type { GpuLora, GpuTensor, ModelWeights, Scratch } from '../runtime/index.ts';
import type { LoraGradients } from './linear-backward.ts';

interface Gradients {
  lora(path: string): LoraGradients | undefined;
  weight(w: GpuTensor | undefined): readonly GPUBuffer[] | undefined;
}

export interface TrainingPass {
  readonly config: ModelConfig;
  readonly weights: ModelWeights;
  readonly lora: GpuLora | undefined;
  readonly lanes: number;
  readonly T: number;
  readonly ids: GPUBuffer; // (T) u32
  readonly rope: GPUBuffer; // (T, D/2, 2) cos, sin of each row's position
  readonly visibility: GPUBuffer; // (T, 4) u32, kernels/attention-visibility.ts
  readonly slots: GPUBuffer; // (1) u32: 0, RoPE's one "cache slot", the (T, KV, D) key and value buffers
  /** Temporaries of this pass, released after its submit. */
  readonly scratch: Scratch;
  readonly grads?: Gradients;
}

/** The adapter's module for a weight ('...q_proj.weight' -> '...q_proj'), when the pass applies one. */
export function loraModule(pass: TrainingPass, w: GpuTensor) {
  const path = w.name.replace(/\.weight$/, '');
  const module = pass.lora?.modules.get(path);
  return module ? { path, module, scale: pass.lora!.scale } : undefined;
}
