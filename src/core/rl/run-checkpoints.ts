/**
 * What runGrpo and runOfflineGrpo share about stopping and resuming: a run starts from a checkpoint's
 * step, metrics and trainer state (refused when made with another seed, since seed and step are the
 * whole RNG state), saves a checkpoint every N steps and at the end, and when stopped through its signal
 * saves the last finished step instead of failing. Test: through test/unit/core/rl/grpo-loop.test.ts and
 * offline-grpo.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import type { GrpoStepMetrics } from './step-metrics.ts';
import type { TrainablePolicy, TrainingState } from './trainable-policy.ts';

/** What resumes a run: the trainer's state after `step`, and the metrics so far (an offline run's have their own shape). */
export interface GrpoCheckpoint<M = GrpoStepMetrics> {
  step: number;
  /** The run's seed: with step, the whole RNG state. */
  seed: number;
  state: TrainingState;
  metrics: M[];
}

/** Where checkpoints go: a directory in Node, IndexedDB in the tab. */
export interface CheckpointStore<M = GrpoStepMetrics> {
  save(checkpoint: GrpoCheckpoint<M>): Promise<void>;
}

type StatefulPolicy = Pick<TrainablePolicy, 'exportState' | 'importState'>;

export class RunCheckpoints<M> {
  /** Steps finished, those before the checkpoint resumed from included. */
  step: number;
  readonly metrics: M[];
  #saved: number;

  private constructor(
    private readonly seed: number,
    private readonly policy: StatefulPolicy,
    private readonly store: CheckpointStore<M> | undefined,
    resume: GrpoCheckpoint<M> | undefined,
  ) {
    this.step = resume?.step ?? 0;
    this.metrics = [...(resume?.metrics ?? [])];
    this.#saved = this.step;
  }

  /** The run from `resume` (its trainer state loaded into the policy), or from step 0. */
  static async open<M>(seed: number, policy: StatefulPolicy, resume?: GrpoCheckpoint<M>, store?: CheckpointStore<M>): Promise<RunCheckpoints<M>> {
    if (resume && resume.seed !== seed)
      throw new BatonError({ code: 'run/config', message: `The checkpoint was made with seed ${resume.seed}, not ${seed}: resume with the same seed.` });
    if (resume) await policy.importState(resume.state);
    return new RunCheckpoints(seed, policy, store, resume);
  }

  /** Saves the current step unless it is saved already (or there is no store). */
  async save(): Promise<void> {
    if (!this.store || this.#saved === this.step) return;
    const step = this.step;
    await this.store.save({ step, seed: this.seed, state: await this.policy.exportState(), metrics: [...this.metrics] });
    this.#saved = step;
  }

  /** Records a finished step's metrics, and saves every `every` steps. */
  async finish(metrics: M, every: number | undefined): Promise<void> {
    this.metrics.push(metrics);
    if (every && this.step % every === 0) await this.save();
  }

  /**
   * Runs the loop, then saves the end; a stop through `signal` (an abort thrown anywhere inside) saves
   * the last finished step instead and reports stopped. Other errors pass through unsaved.
   */
  async runUntilStopped(signal: AbortSignal | undefined, loop: () => Promise<void>): Promise<{ stopped: boolean }> {
    try {
      await loop();
      await this.save();
    } catch (e) {
      if (!signal?.aborted) throw e;
      await this.save();
      return { stopped: true };
    }
    return { stopped: false };
  }
}
