/**
 * A GpuTrainer that keeps, at each step, a copy of the gradient it is about to apply (before
 * clipping): what `baton grpo-step` writes beside the adapter, and what the tests compare with the
 * float64 reference trainer's.
 */
import type { DifferentiablePolicy, ScoredSequence } from '../../core/rl/index.ts';
import type { GpuTrainer } from './gpu-trainer.ts';

export class GradientCapture implements DifferentiablePolicy {
  /** The last step's gradient by trained tensor name, read back just before it was applied. */
  captured = new Map<string, Float32Array>();
  constructor(readonly trainer: GpuTrainer) {}

  forward(sequences: readonly ScoredSequence[], temperature: number) {
    return this.trainer.forward(sequences, temperature);
  }

  referenceLogprobs(sequences: readonly ScoredSequence[], temperature: number) {
    return this.trainer.referenceLogprobs(sequences, temperature);
  }

  backward(dLogp: readonly ArrayLike<number>[]) {
    return this.trainer.backward(dLogp);
  }

  async applyGradients() {
    this.captured = await this.trainer.readGradients();
    return this.trainer.applyGradients();
  }
}
