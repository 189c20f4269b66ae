/**
 * What every dispatch of one training pass shares: B sequences padded to Tq tokens each (T = B * Tq
 * rows, sequence b's rows b * Tq .. b * Tq + Tq - 1), each sequence's keys and values in its own slot
 * b of plain (B, Tq, KV, D) buffers (startPos 0: no prompt is shared), the model's weights and the
 * adapter in use (undefined: the base alone), and where the gradients of what trains go (undefined:
 * nothing trains in this pass, as in the KL reference's).
 */
import type { ModelConfig } from '../model/index.ts';
import type { GpuLora, GpuTensor, ModelWeights, Scratch } from '../runtime/index.ts';
import type { LoraGradients } from './linear-backward.ts';

export interface Gradients {
  lora(path: string): LoraGradients | undefined;
  weight(w: GpuTensor | undefined): readonly GPUBuffer[] | undefined;
}

export interface TrainingPass {
  readonly config: ModelConfig;
  readonly weights: ModelWeights;
  readonly lora: GpuLora | undefined;
  readonly lanes: number;
  readonly B: number;
  readonly Tq: number;
  readonly T: number;
  readonly ids: GPUBuffer; // (T) u32, padded
  readonly rope: GPUBuffer; // (T, D/2, 2) cos, sin of positions 0 .. Tq - 1, per sequence
  readonly slots: GPUBuffer; // (B) u32: 0 .. B - 1
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
