/**
 * The Evaluate page's evaluations in IndexedDB (database 'baton-evaluations'): each one's settings,
 * status and report (store 'evaluations'), its items as read at the start (store 'items', so a resume
 * needs no file picked again), every worker call it made (store 'calls', keyed `<eval id>|<call key>`,
 * so a resume pays for nothing twice) and the Hugging Face pages read (store 'hub-pages'). Its runs
 * are episodes in the episode store, tagged eval:<id>. Test: test/unit/services/evaluator/evaluation-db.test.ts.
 */
import type { BadRow, PageCache } from '../../core/bench/datasets/index.ts';
import type { EvalReport, LoggedCall } from '../../core/bench/eval/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { CallResult } from '../../core/providers/index.ts';
import { KeyedDb } from '../../core/storage/index.ts';
import type { Task } from '../../core/task.ts';
import type { EvalSettings } from './api.ts';

export const EVALUATION_DB = 'baton-evaluations';
const EVALUATIONS = 'evaluations';
const ITEMS = 'items';
const CALLS = 'calls';
const PAGES = 'hub-pages';

/** 'running' stored with no runner behind it means the tab went away mid-run: it resumes like a stopped one. */
export type EvaluationStatus = 'running' | 'stopped' | 'over-budget' | 'done' | 'failed';

export interface StoredEvaluation {
  id: string;
  settings: EvalSettings;
  status: EvaluationStatus;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
  /** Items evaluated, and rows of the user's data left out (listed, never dropped in silence). */
  items: number;
  bad: BadRow[];
  badUnit: 'line' | 'row';
  /** Runs (item x method x repeat) in all, and those finished. */
  total: number;
  done: number;
  /** The report of the finished runs, as of the last stop or end. */
  report?: EvalReport;
  error?: { code: string; message: string };
}

/** Keys of one evaluation's calls: its id, then the call log's own key. */
const callRange = (evalId: string) => IDBKeyRange.bound(`${evalId}|`, `${evalId}|\uffff`);

const FULL = "The browser's storage for this site is full: delete old evaluations or episodes, then resume.";

export class EvaluationDb {
  readonly #db: KeyedDb;

  private constructor(db: KeyedDb) {
    this.#db = db;
  }

  static async open(factory: IDBFactory = indexedDB): Promise<EvaluationDb> {
    return new EvaluationDb(await KeyedDb.open(factory, EVALUATION_DB, 1, { [EVALUATIONS]: 'id', [ITEMS]: 'id', [CALLS]: 'key', [PAGES]: 'url' }));
  }

  /** Every stored evaluation, newest first. */
  async list(): Promise<StoredEvaluation[]> {
    const all = await this.#db.getAll<StoredEvaluation>(EVALUATIONS);
    return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  }

  get(id: string): Promise<StoredEvaluation | undefined> {
    return this.#db.get<StoredEvaluation>(EVALUATIONS, id);
  }

  put(evaluation: StoredEvaluation): Promise<void> {
    return this.#db.put(EVALUATIONS, evaluation, FULL);
  }

  /** A new evaluation and its items, in one transaction. */
  create(evaluation: StoredEvaluation, tasks: readonly Task[]): Promise<void> {
    return this.#db.write([EVALUATIONS, ITEMS], FULL, (tx) =>
      Promise.all([tx.objectStore(EVALUATIONS).put(evaluation), tx.objectStore(ITEMS).put({ id: evaluation.id, tasks })]),
    );
  }

  async items(id: string): Promise<Task[]> {
    const record = await this.#db.get<{ tasks: Task[] }>(ITEMS, id);
    if (!record) throw new BatonError({ code: 'data/not-found', message: `The items of evaluation ${id} are not stored: it cannot be resumed.` });
    return record.tasks;
  }

  /** The evaluation's calls, as its call log reads them back. */
  async calls(id: string): Promise<LoggedCall[]> {
    const rows = await this.#db.getAll<{ key: string; result: CallResult }>(CALLS, callRange(id));
    return rows.map((r) => ({ key: r.key.slice(id.length + 1), result: r.result }));
  }

  putCall(id: string, call: LoggedCall): Promise<void> {
    return this.#db.put(CALLS, { key: `${id}|${call.key}`, result: call.result }, FULL);
  }

  /** Removes the evaluation, its items and its calls (its episodes stay in the episode store). */
  delete(id: string): Promise<void> {
    return this.#db.write([EVALUATIONS, ITEMS, CALLS], FULL, (tx) =>
      Promise.all([tx.objectStore(EVALUATIONS).delete(id), tx.objectStore(ITEMS).delete(id), tx.objectStore(CALLS).delete(callRange(id))]),
    );
  }

  /** core/bench's PageCache over the 'hub-pages' store. */
  hubPages(): PageCache {
    return {
      get: async (url) => (await this.#db.get<{ text: string }>(PAGES, url))?.text,
      put: (url, text) => this.#db.put(PAGES, { url, text }, FULL),
    };
  }
}
