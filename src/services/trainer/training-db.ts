/**
 * The Train page's run in IndexedDB: its settings and state (store 'runs', one record: the current
 * run) and its newest GRPO checkpoint (store 'checkpoints': adapter, optimiser, step, seed, metrics),
 * so that a reload, a crash or a closed tab resumes the run from its last finished step. A checkpoint
 * replaces the previous one in one transaction: a kill at any moment leaves one whole checkpoint.
 * Also what "train on my choices" trained last (store 'choices', one record, added in version 2), so that
 * a reload still offers it, with its held-out check, for "Use as Conductor".
 * Test: test/unit/services/trainer/training-db.test.ts (fake-indexeddb).
 */
import type { EngineModelSource } from '../../core/conductor/index.ts';
import type { CheckpointStore, GrpoCheckpoint } from '../../core/rl/index.ts';
import { KeyedDb } from '../../core/storage/index.ts';
import type { TrainedAdapter } from '../runtimes/index.ts';
import type { ChoiceTrainingSummary, TrainingConfig } from './api.ts';

export const TRAINING_DB = 'baton-training';
const RUNS = 'runs';
const CHECKPOINTS = 'checkpoints';
const CHOICES = 'choices';
const CURRENT = 'current';

/** Where a run stands. 'running' stored means the tab went away mid-run: it resumes like a paused one. */
export type TrainingRunStatus = 'running' | 'paused' | 'stopped' | 'done' | 'failed';

export interface StoredRun {
  /** A new id per Start: checkpoints and episodes belong to it. */
  runId: string;
  config: TrainingConfig;
  status: TrainingRunStatus;
  /** ISO time of the Start. */
  startedAt: string;
  error?: { code: string; message: string };
}

interface StoredCheckpoint extends GrpoCheckpoint {
  runId: string;
}

/** What "train on my choices" trained last: its adapter, named (stored with the trained adapters when used), on which model, and its check. */
export interface StoredChoices {
  adapter: Omit<TrainedAdapter, 'savedAt'>;
  model: EngineModelSource;
  summary: ChoiceTrainingSummary;
}

/** What to do when the disk is full, after what could not be stored. */
const MAKE_ROOM = 'Make room (delete episodes on the Episodes page) and Resume.';

export class TrainingDb {
  readonly #db: KeyedDb;

  private constructor(db: KeyedDb) {
    this.#db = db;
  }

  static async open(factory: IDBFactory = indexedDB): Promise<TrainingDb> {
    return new TrainingDb(await KeyedDb.open(factory, TRAINING_DB, 2, { [RUNS]: 'id', [CHECKPOINTS]: 'runId', [CHOICES]: 'id' }));
  }

  async run(): Promise<StoredRun | undefined> {
    const record = await this.#db.get<StoredRun & { id: string }>(RUNS, CURRENT);
    if (!record) return undefined;
    const { id: _, ...run } = record;
    return run;
  }

  /** Makes `run` the current one; a new run id drops the previous run's checkpoint in the same transaction. */
  async putRun(run: StoredRun): Promise<void> {
    await this.#db.write([RUNS, CHECKPOINTS], `No room left in this browser's storage for the training run's state. ${MAKE_ROOM}`, async (tx) => {
      const previous = (await tx.objectStore(RUNS).get(CURRENT)) as StoredRun | undefined;
      if (previous && previous.runId !== run.runId) await tx.objectStore(CHECKPOINTS).delete(previous.runId);
      await tx.objectStore(RUNS).put({ ...run, id: CURRENT });
    });
  }

  /** The run's newest checkpoint, if one was saved. */
  async latestCheckpoint(runId: string): Promise<GrpoCheckpoint | undefined> {
    const stored = await this.#db.get<StoredCheckpoint>(CHECKPOINTS, runId);
    if (!stored) return undefined;
    const { runId: _, ...checkpoint } = stored;
    return checkpoint;
  }

  /** runGrpo's CheckpointStore for the run. */
  checkpoints(runId: string): CheckpointStore {
    return {
      save: (checkpoint) =>
        this.#db.put(
          CHECKPOINTS,
          { ...checkpoint, runId } satisfies StoredCheckpoint,
          `No room left in this browser's storage for the checkpoint of step ${checkpoint.step}; the previous checkpoint is kept. ${MAKE_ROOM}`,
        ),
    };
  }

  async choices(): Promise<StoredChoices | undefined> {
    const record = await this.#db.get<StoredChoices & { id: string }>(CHOICES, CURRENT);
    if (!record) return undefined;
    const { id: _, ...choices } = record;
    return choices;
  }

  /** Replaces what "train on my choices" trained before. */
  putChoices(choices: StoredChoices): Promise<void> {
    return this.#db.put(
      CHOICES,
      { ...choices, id: CURRENT },
      "No room left in this browser's storage for the Conductor trained on your choices. Make room (delete episodes on the Episodes page) and train again.",
    );
  }

  close(): void {
    this.#db.close();
  }
}
