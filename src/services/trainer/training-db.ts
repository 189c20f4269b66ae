/**
 * The Train page's run in IndexedDB: its settings and state (store 'runs', one record: the current
 * run) and its newest GRPO checkpoint (store 'checkpoints': adapter, optimiser, step, seed, metrics),
 * so that a reload, a crash or a closed tab resumes the run from its last finished step. A checkpoint
 * replaces the previous one in one transaction: a kill at any moment leaves one whole checkpoint.
 * Test: test/unit/services/trainer/training-db.test.ts (fake-indexeddb).
 */
import type { IDBPDatabase } from 'idb';
import { isQuotaError } from '../../core/episodes/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { CheckpointStore, GrpoCheckpoint } from '../../core/rl/index.ts';
import { openKeyedDb } from '../conductor/index.ts';
import type { TrainingConfig } from './training-config.ts';

export const TRAINING_DB = 'baton-training';
const RUNS = 'runs';
const CHECKPOINTS = 'checkpoints';
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

export class TrainingDb {
  readonly #db: IDBPDatabase;

  private constructor(db: IDBPDatabase) {
    this.#db = db;
  }

  static async open(factory: IDBFactory = indexedDB): Promise<TrainingDb> {
    return new TrainingDb(await openKeyedDb(factory, TRAINING_DB, 1, { [RUNS]: 'id', [CHECKPOINTS]: 'runId' }));
  }

  async run(): Promise<StoredRun | undefined> {
    const record = (await this.#db.get(RUNS, CURRENT)) as (StoredRun & { id: string }) | undefined;
    if (!record) return undefined;
    const { id: _, ...run } = record;
    return run;
  }

  /** Makes `run` the current one; a new run id drops the previous run's checkpoint in the same transaction. */
  async putRun(run: StoredRun): Promise<void> {
    const tx = this.#db.transaction([RUNS, CHECKPOINTS], 'readwrite');
    const previous = (await tx.objectStore(RUNS).get(CURRENT)) as StoredRun | undefined;
    if (previous && previous.runId !== run.runId) await tx.objectStore(CHECKPOINTS).delete(previous.runId);
    await tx.objectStore(RUNS).put({ ...run, id: CURRENT });
    await tx.done;
  }

  /** The run's newest checkpoint, if one was saved. */
  async latestCheckpoint(runId: string): Promise<GrpoCheckpoint | undefined> {
    const stored = (await this.#db.get(CHECKPOINTS, runId)) as StoredCheckpoint | undefined;
    if (!stored) return undefined;
    const { runId: _, ...checkpoint } = stored;
    return checkpoint;
  }

  /** runGrpo's CheckpointStore for the run. */
  checkpoints(runId: string): CheckpointStore {
    return {
      save: async (checkpoint) => {
        try {
          await this.#db.put(CHECKPOINTS, { ...checkpoint, runId } satisfies StoredCheckpoint);
        } catch (e) {
          if (!isQuotaError(e)) throw e;
          throw new BatonError({
            code: 'store/quota',
            message: `No room left in this browser's storage for the checkpoint of step ${checkpoint.step}; the previous checkpoint is kept. Make room (delete episodes on the Episodes page) and Resume.`,
            cause: e,
          });
        }
      },
    };
  }

  close(): void {
    this.#db.close();
  }
}
