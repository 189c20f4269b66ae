/**
 * What a GPU trainer trains, with a gradient buffer beside each tensor: the LoRA A and B buffers the
 * GpuModel samples with (so an optimiser step changes the very next generate), or, for full
 * fine-tuning, every f32 weight buffer of the model (the master weights, one parameter per row
 * chunk). The parameters are the AdamW's (engine/optim TrainedParameter): updated in place.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import type { TrainedParameter } from '../optim/index.ts';
import type { GpuLora, GpuTensor, ModelWeights } from '../runtime/index.ts';
import type { LoraGradients } from './linear-backward.ts';

/** Each tensor of the model once (a tied head is the embedding). */
export function modelTensors(weights: ModelWeights): GpuTensor[] {
  return [
    ...new Set([
      weights.embed,
      weights.norm,
      weights.lmHead,
      ...weights.layers.flatMap((l) => Object.values(l).filter((w): w is GpuTensor => w !== undefined)),
    ]),
  ];
}

export class TrainedWeights {
  readonly parameters: TrainedParameter[] = [];
  readonly #device: EngineDevice;
  readonly #lora = new Map<string, LoraGradients>();
  readonly #weights = new Map<GpuTensor, GPUBuffer[]>();

  private constructor(device: EngineDevice) {
    this.#device = device;
  }

  /** The adapter's A and B, by module path. */
  static lora(device: EngineDevice, lora: GpuLora): TrainedWeights {
    const t = new TrainedWeights(device);
    t.#build(() => {
      for (const [path, m] of lora.modules) {
        const dA = t.#parameter(`${path}.lora_A`, m.A, 0);
        const dB = t.#parameter(`${path}.lora_B`, m.B, 0);
        t.#lora.set(path, { dA, dB });
      }
    });
    return t;
  }

  /** Every weight of the model, which must be stored as f32 (the master copy AdamW updates). */
  static full(device: EngineDevice, weights: ModelWeights): TrainedWeights {
    if (weights.format !== 'f32') {
      throw new BatonError({
        code: 'run/config',
        message: `Full fine-tuning updates f32 master weights, but this model was loaded with ${weights.format} weights; load it with weights 'f32' (or train a LoRA adapter over the ${weights.format} base).`,
        data: { weights: weights.format },
      });
    }
    const t = new TrainedWeights(device);
    t.#build(() => {
      for (const w of modelTensors(weights)) {
        t.#weights.set(
          w,
          w.chunks.map((_, i) => t.#parameter(w.chunks.length > 1 ? `${w.name}#${i}` : w.name, w, i)),
        );
      }
    });
    return t;
  }

  loraGradients(path: string): LoraGradients | undefined {
    return this.#lora.get(path);
  }

  /** Gradient buffers of a weight's row chunks, when it trains. */
  weightGradients(w: GpuTensor | undefined): GPUBuffer[] | undefined {
    return w ? this.#weights.get(w) : undefined;
  }

  /** Sets every gradient to zero (CPU writes: call between submits). */
  zeroGradients(): void {
    const largest = Math.max(...this.parameters.map((p) => p.grad.size));
    const zeros = new Uint8Array(largest);
    for (const p of this.parameters) this.#device.write(p.grad, zeros.subarray(0, p.grad.size));
  }

  destroy(): void {
    for (const p of this.parameters) this.#device.free(p.grad);
    this.parameters.length = 0;
  }

  #build(fill: () => void): void {
    try {
      fill();
    } catch (e) {
      this.destroy();
      throw e;
    }
    this.zeroGradients();
  }

  #parameter(name: string, w: GpuTensor, chunk: number): GPUBuffer {
    const c = w.chunks[chunk];
    if (w.dtype !== 'f32' || w.int4)
      throw new BatonError({ code: 'run/config', message: `${name} is stored as ${w.int4 ? 'int4' : w.dtype}; only f32 tensors train.` });
    const grad = this.#device.createBuffer(c.rows * w.cols * 4, `${name}.grad`);
    this.parameters.push({ name, shape: [c.rows, w.cols], param: c.buffer, grad });
    return grad;
  }
}
