/**
 * The float64 reference trainer: core/rl's DifferentiablePolicy over the float64 model
 * (runtime/forward.ref.ts), its backward (model-backward.ref.ts) and the optimiser's references
 * (optim/*.ref.ts). It trains a LoRA adapter or every weight exactly as the formulas say, slowly; the
 * GPU trainer is checked against it step for step, and so is `baton grpo-step`. Tiny models only.
 */
import type { DifferentiablePolicy, GradientStep, OptimizerOptions, ScoredSequence, SequenceScores } from '../../core/rl/index.ts';
import type { LoraAdapter } from '../model/index.ts';
import { adamwRef, clipCoefficient, globalNorm, learningRate, resolveSettings, sumSquaresRef, type AdamWSettings } from '../optim/index.ts';
import { entropyRef, logprobsRef } from '../kernels/index.ts';
import { refForward, refLogprobs, type RefModel } from '../runtime/index.ts';
import { refLogprobGradients } from './model-backward.ref.ts';

/** One trained tensor: its values (updated in place), gradient and AdamW moments, all float64. */
interface Trained {
  readonly values: Float64Array | Float32Array;
  readonly grad: Float64Array;
  readonly m: Float64Array;
  readonly v: Float64Array;
}

interface RefTrainerOptions {
  /** What trains: the adapter's A and B ('lora', the adapter must be given), or every weight. */
  wrt: 'lora' | 'weights';
  lora?: LoraAdapter;
  optimizer: OptimizerOptions;
}

const trained = (values: Float64Array | Float32Array): Trained => ({
  values,
  grad: new Float64Array(values.length),
  m: new Float64Array(values.length),
  v: new Float64Array(values.length),
});

export class RefTrainer implements DifferentiablePolicy {
  readonly #model: RefModel;
  readonly #options: RefTrainerOptions;
  readonly #settings: AdamWSettings;
  /** By module path + '.A' / '.B' (LoRA) or by weight name. */
  readonly #params = new Map<string, Trained>();
  #last: { sequences: readonly ScoredSequence[]; temperature: number } | undefined;
  #step = 0;

  /** Trains `model`'s weights (or `options.lora`'s A and B) in place. */
  constructor(model: RefModel, options: RefTrainerOptions) {
    this.#model = model;
    this.#options = options;
    this.#settings = resolveSettings(options.optimizer);
    if (options.wrt === 'lora') {
      for (const [path, w] of options.lora!.weights) {
        this.#params.set(`${path}.A`, trained(w.A));
        this.#params.set(`${path}.B`, trained(w.B));
      }
    } else {
      for (const [name, w] of model.weights) this.#params.set(name, trained(w));
    }
  }

  get step(): number {
    return this.#step;
  }

  /** The accumulated gradient of each trained tensor, by the names above. */
  gradients(): ReadonlyMap<string, Float64Array> {
    return new Map([...this.#params].map(([name, p]) => [name, p.grad]));
  }

  async forward(sequences: readonly ScoredSequence[], temperature: number): Promise<SequenceScores> {
    this.#last = { sequences, temperature };
    const scores: SequenceScores = { logprobs: [], entropy: [] };
    const V = this.#model.config.vocabSize;
    for (const s of sequences) {
      const logits = refForward(this.#model, [...s.ids], this.#lora());
      const R = s.ids.length - 1;
      scores.logprobs.push(logprobsRef(logits, s.ids.slice(1), R, V, temperature).subarray(s.completionStart - 1));
      scores.entropy.push(entropyRef(logits, R, V, temperature).subarray(s.completionStart - 1));
    }
    return scores;
  }

  async referenceLogprobs(sequences: readonly ScoredSequence[], temperature: number): Promise<Float64Array[]> {
    // With LoRA the reference is the base without the adapter; with every weight training, the
    // reference would be a frozen copy, which this trainer does not keep.
    if (this.#options.wrt !== 'lora') throw new Error('the reference trainer has a KL reference only for LoRA (the base without the adapter)');
    return sequences.map((s) => Float64Array.from(refLogprobs(this.#model, [...s.ids], { temperature }).slice(s.completionStart - 1)));
  }

  async backward(dLogp: readonly ArrayLike<number>[]): Promise<void> {
    const last = this.#last;
    if (!last || dLogp.length !== last.sequences.length) throw new Error('backward needs the forward of the same sequences first');
    last.sequences.forEach((s, i) => {
      // Tokens before the completion carry no loss: their logprobs get a zero gradient.
      const full = new Float64Array(s.ids.length - 1);
      full.set(Float64Array.from(dLogp[i]), s.completionStart - 1);
      const g = refLogprobGradients(this.#model, [...s.ids], full, { temperature: last.temperature, wrt: this.#options.wrt, ...this.#lora() });
      if (this.#options.wrt === 'lora') {
        for (const [path, { dA, dB }] of g.lora) {
          add(this.#params.get(`${path}.A`)!.grad, dA);
          add(this.#params.get(`${path}.B`)!.grad, dB);
        }
      } else {
        for (const [name, grad] of g.weights) add(this.#params.get(name)!.grad, grad);
      }
    });
  }

  async applyGradients(): Promise<GradientStep> {
    const s = this.#settings;
    const params = [...this.#params.values()];
    const sums = sumSquaresRef(params.map((p) => p.grad));
    const gradNorm = globalNorm(sums);
    const zeroGrads = () => params.forEach((p) => p.grad.fill(0));
    if (!Number.isFinite(gradNorm)) {
      zeroGrads();
      return { applied: false, gradNorm, lr: 0, step: this.#step, reason: `${sums.nonFinite} gradient values were NaN or infinite` };
    }
    const lr = learningRate(s.lr, s.schedule, this.#step);
    const clip = clipCoefficient(gradNorm, s.maxGradNorm);
    for (const p of params) {
      const next = adamwRef(p.values, p.grad, p.m, p.v, { step: this.#step, lr, beta1: s.beta1, beta2: s.beta2, eps: s.eps, weightDecay: s.weightDecay, clip });
      p.values.set(next.param);
      p.m.set(next.m);
      p.v.set(next.v);
    }
    zeroGrads();
    this.#step++;
    return { applied: true, gradNorm, lr, step: this.#step };
  }

  #lora(): { lora?: LoraAdapter } {
    return this.#options.lora ? { lora: this.#options.lora } : {};
  }
}

function add(sum: Float64Array, g: ArrayLike<number>): void {
  for (let i = 0; i < sum.length; i++) sum[i] += g[i];
}
