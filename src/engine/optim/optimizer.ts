/**
 * AdamW over a list of f32 parameter buffers (LoRA A/B or full weights, the master copy), on the GPU.
 * One step: the global gradient norm of all gradients (sumSquaresPartial per buffer, sumSquaresFinish,
 * one read-back of two numbers); a step whose gradients hold NaN or infinity is skipped and reported,
 * touching no parameter, moment or step count; otherwise clip coefficient and learning rate (schedule.ts)
 * go into adamwStep's uniforms, one dispatch per buffer, all in one submit. Gradients are only read:
 * clipping is folded into the update, where clip_grad_norm_ would rescale them in place first.
 * exportState / importState round-trip the moments and step count (optimizer-state.ts), so a resumed
 * run takes bit for bit the steps an uninterrupted one would.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import { elementCount } from '../model/index.ts';
import { adamwStep, adamwUniforms } from './adamw.ts';
import { resolveSettings, type AdamWOptions, type AdamWSettings } from './adamw-settings.ts';
import { PARTIAL_FLOATS, sumSquaresFinish, sumSquaresGroups, sumSquaresPartial } from './clip.ts';
import { clipCoefficient } from './clip.ref.ts';
import { readOptimizerState, writeOptimizerState, type ParameterShape } from './optimizer-state.ts';
import { learningRate } from './schedule.ts';

export interface TrainedParameter extends ParameterShape {
  readonly param: GPUBuffer; // (shape) f32, updated in place
  readonly grad: GPUBuffer; // (shape) f32, read only
}

type StepReport =
  | {
      readonly applied: true;
      /** Steps taken, this one included. */
      readonly step: number;
      readonly lr: number;
      /** Global L2 norm of the gradients before clipping (clip_grad_norm_'s return value). */
      readonly gradNorm: number;
      /** What the gradients were multiplied by (1 when under maxGradNorm). */
      readonly clip: number;
    }
  | {
      readonly applied: false;
      /** Steps taken: unchanged by this call. */
      readonly step: number;
      readonly reason: string;
      /** NaN or infinite gradient values. */
      readonly nonFinite: number;
      /** Parameters whose gradients hold them (or overflow f32 when squared). */
      readonly parameters: readonly string[];
    };

interface Slot {
  readonly p: TrainedParameter;
  readonly n: number;
  readonly m: GPUBuffer; // (n) exp_avg
  readonly v: GPUBuffer; // (n) exp_avg_sq
  /** First block of this parameter in the partials buffer, and how many it has. */
  readonly base: number;
  readonly groups: number;
}

export class AdamW {
  readonly #device: EngineDevice;
  readonly #slots: Slot[] = [];
  readonly #partials: GPUBuffer; // (blocks, 2)
  readonly #total: GPUBuffer; // (2)
  readonly #blocks: number;
  #settings: AdamWSettings;
  #step = 0;

  constructor(device: EngineDevice, parameters: readonly TrainedParameter[], options: AdamWOptions) {
    this.#settings = resolveSettings(options);
    checkParameters(parameters);
    this.#device = device;
    const made: GPUBuffer[] = [];
    const create = (bytes: number, label: string) => {
      const buffer = device.createBuffer(bytes, label);
      made.push(buffer);
      return buffer;
    };
    try {
      let base = 0;
      for (const p of parameters) {
        const n = elementCount(p.shape);
        const groups = sumSquaresGroups(n);
        this.#slots.push({ p, n, m: create(4 * n, `${p.name}.exp_avg`), v: create(4 * n, `${p.name}.exp_avg_sq`), base, groups });
        base += groups;
      }
      this.#blocks = base;
      this.#partials = create(4 * PARTIAL_FLOATS * base, 'adamw partials');
      this.#total = create(4 * PARTIAL_FLOATS, 'adamw total');
    } catch (e) {
      // A model too large for the GPU's buffers: give back what was made before failing.
      for (const b of made) device.free(b);
      throw e;
    }
  }

  /** Steps taken (PyTorch's state['step']); the next step's bias corrections and learning rate use it. */
  get stepCount(): number {
    return this.#step;
  }

  get settings(): AdamWSettings {
    return this.#settings;
  }

  /** One optimiser step from the gradients now in the grad buffers. */
  async step(): Promise<StepReport> {
    const device = this.#device;
    const batch = device.batch('adamw norm');
    for (const s of this.#slots) {
      batch.run(sumSquaresPartial, {}, { grad: s.p.grad, partials: this.#partials }, { n: s.n, groups: s.groups, base: s.base });
    }
    await batch.run(sumSquaresFinish, {}, { partials: this.#partials, total: this.#total }, { blocks: this.#blocks }).submit();
    const [sumSquares, nonFinite] = await device.readF32(this.#total, 0, PARTIAL_FLOATS);
    if (nonFinite > 0 || !Number.isFinite(sumSquares)) return this.#skipped(nonFinite);

    const s = this.#settings;
    const gradNorm = Math.sqrt(sumSquares);
    const clip = clipCoefficient(gradNorm, s.maxGradNorm);
    const lr = learningRate(s.lr, s.schedule, this.#step);
    const hyper = { step: this.#step, lr, beta1: s.beta1, beta2: s.beta2, eps: s.eps, weightDecay: s.weightDecay, clip };
    const update = device.batch('adamw step');
    for (const slot of this.#slots) {
      update.run(adamwStep, {}, { param: slot.p.param, grad: slot.p.grad, m: slot.m, v: slot.v }, adamwUniforms(slot.n, hyper));
    }
    await update.submit();
    this.#step++;
    return { applied: true, step: this.#step, lr, gradNorm, clip };
  }

  /** The report of a skipped step; reads the blocks back (only on this rare path) to name the parameters. */
  async #skipped(nonFinite: number): Promise<StepReport> {
    const partials = await this.#device.readF32(this.#partials, 0, PARTIAL_FLOATS * this.#blocks);
    const bad = (block: number) => partials[PARTIAL_FLOATS * block + 1] > 0 || !Number.isFinite(partials[PARTIAL_FLOATS * block]);
    const parameters = this.#slots.filter((s) => Array.from({ length: s.groups }, (_, k) => s.base + k).some(bad)).map((s) => s.p.name);
    const reason =
      nonFinite > 0
        ? `${nonFinite} gradient values are NaN or infinite (in ${parameters.join(', ')}); the step was skipped and nothing changed.`
        : `the gradient norm overflows f32 (in ${parameters.join(', ')}); the step was skipped and nothing changed.`;
    return { applied: false, step: this.#step, reason, nonFinite, parameters };
  }

  /** The step count, hyper-parameters and moments as a safetensors file (optimizer-state.ts). */
  async exportState(): Promise<Uint8Array<ArrayBuffer>> {
    const moments = [];
    for (const s of this.#slots) {
      moments.push({ name: s.p.name, shape: s.p.shape, m: await this.#device.readF32(s.m, 0, s.n), v: await this.#device.readF32(s.v, 0, s.n) });
    }
    return writeOptimizerState({ step: this.#step, settings: this.#settings, moments });
  }

  /**
   * Continues from a state made by exportState for parameters of the same names and shapes (else a
   * 'data/invalid' BatonError, with nothing changed). As torch's load_state_dict does, the saved
   * hyper-parameters replace the ones this optimiser was made with, so the run continues as it was.
   */
  importState(bytes: Uint8Array): void {
    const state = readOptimizerState(
      bytes,
      this.#slots.map((s) => s.p),
    );
    state.moments.forEach((moments, i) => {
      this.#device.write(this.#slots[i].m, moments.m);
      this.#device.write(this.#slots[i].v, moments.v);
    });
    this.#step = state.step;
    this.#settings = state.settings;
  }

  /** Frees the moments and scratch buffers; the parameter and gradient buffers stay their owner's. */
  destroy(): void {
    for (const s of this.#slots) {
      this.#device.free(s.m);
      this.#device.free(s.v);
    }
    this.#device.free(this.#partials);
    this.#device.free(this.#total);
  }
}

function checkParameters(parameters: readonly TrainedParameter[]): void {
  const fail = (message: string, data: Record<string, unknown>) =>
    new BatonError({ code: 'internal', message: `AdamW: ${message} This is a bug in the caller.`, data });
  if (parameters.length === 0) throw fail('no parameters to train.', {});
  const seen = new Set<string>();
  for (const p of parameters) {
    if (seen.has(p.name)) throw fail(`parameter ${p.name} is listed twice.`, { name: p.name });
    seen.add(p.name);
    const bytes = 4 * elementCount(p.shape);
    if (p.param.size < bytes || p.grad.size < bytes) {
      throw fail(`parameter ${p.name} of shape [${p.shape}] needs ${bytes}-byte f32 buffers; got ${p.param.size} and ${p.grad.size}.`, { name: p.name });
    }
  }
}
