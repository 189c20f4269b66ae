/**
 * The Evaluate page's state: the form, the data preview (bad rows by line), the evaluation's progress as
 * the evaluator worker reports it, the stored evaluations, the one opened and those compared, and the
 * actions (Start, Stop, Resume, Delete). Lives with the page, so none of it weighs on first paint.
 */
import {
  DEFAULT_EVAL,
  evaluatorInService,
  formatOfFile,
  lazyCodeRunner,
  slotsNeeded,
  watchEvaluation,
  type ConductorChoice,
  type DataPreview,
  type EvalDataSource,
  type EvalSettings,
  type EvaluationProgress,
  type StoredEvaluation,
} from '../../../client/index.ts';
import { parseMethodSpec } from '../../../core/bench/index.ts';
import { toBatonError } from '../../../core/errors/index.ts';
import type { WorkerSpec } from '../../../core/providers/index.ts';
import type { RecordedPoolName } from '../../../core/providers/replay/index.ts';
import type { TaskKind } from '../../../core/task.ts';
import { runAction, type KeysState } from '../../state/index.ts';

interface EvalForm {
  source: EvalDataSource['from'];
  builtin: Extract<EvalDataSource, { from: 'builtin' }>['name'];
  /** The recorded pool whose held-out questions, and workers, a 'recorded' source evaluates. */
  recordedPool: RecordedPoolName;
  subjects: string[];
  hubDataset: string;
  /** Field mapping of the user's data, as `question=..,answer=..`. */
  map: string;
  kind: TaskKind | '';
  skipBad: boolean;
  offset: number;
  /** null: every item. */
  limit: number | null;
  methods: string[];
  /** More method strings, one per line or comma-free list (e.g. moa:layers=2). */
  extraMethods: string;
  repeats: number;
  concurrency: number;
  /** null: no budget. */
  budgetUsd: number | null;
  seed: number;
  maxSteps: number;
}

const BUSY = ['loading', 'running', 'stopping'];

export class EvaluateState {
  form = $state<EvalForm>({
    source: 'builtin',
    builtin: 'gsm8k',
    recordedPool: 'routerbench-4',
    subjects: [],
    hubDataset: '',
    map: '',
    kind: '',
    skipBad: false,
    offset: DEFAULT_EVAL.offset,
    limit: DEFAULT_EVAL.limit ?? null,
    methods: [],
    extraMethods: '',
    repeats: DEFAULT_EVAL.repeats,
    concurrency: DEFAULT_EVAL.concurrency,
    budgetUsd: null,
    seed: DEFAULT_EVAL.seed,
    maxSteps: DEFAULT_EVAL.maxSteps,
  });
  /** Plan files picked, by name: their completion texts travel with the settings. */
  plans = $state.raw<Record<string, string>>({});
  /** The picked file (its bytes are read at preview and start). */
  file = $state.raw<File | undefined>(undefined);
  preview = $state.raw<DataPreview | undefined>(undefined);
  previewError = $state<string | undefined>(undefined);
  progress = $state.raw<EvaluationProgress>({ status: 'idle', done: 0, total: 0, graded: 0, correct: 0, costUsd: 0, elapsedMs: 0 });
  evaluations = $state.raw<StoredEvaluation[]>([]);
  openId = $state<string | undefined>(undefined);
  compareIds = $state<string[]>([]);
  subjects = $state.raw<string[]>([]);
  actionError = $state<string | undefined>(undefined);
  /** The recorded pool's workers, once the evaluator worker has read them (only a 'recorded' source loads them). */
  recorded = $state.raw<{ name: RecordedPoolName; workers: WorkerSpec[] } | undefined>(undefined);
  recordedError = $state<string | undefined>(undefined);
  #connected = false;

  /** `preset`: the methods checked at first over a pool. */
  constructor(
    private readonly keys: KeysState,
    private readonly preset: (pool: readonly WorkerSpec[]) => string[],
  ) {}

  /** The pool the evaluation runs: the recorded pool's for a 'recorded' source (none until read), else the user's. */
  pool(userPool: WorkerSpec[]): WorkerSpec[] {
    if (this.form.source !== 'recorded') return userPool;
    return this.recorded?.name === this.form.recordedPool ? this.recorded.workers : [];
  }

  /**
   * After the source or the recorded pool changed: a recorded pool's workers are read (its data loads only now),
   * and the methods checked become those of the pool the evaluation will run, as at first.
   */
  async choosePool(userPool: WorkerSpec[]): Promise<void> {
    this.recordedError = undefined;
    if (this.form.source !== 'recorded') {
      if (this.recorded) this.form.methods = this.preset(userPool);
      this.recorded = undefined;
      return;
    }
    const name = this.form.recordedPool;
    try {
      const workers = await evaluatorInService().recordedPool(name);
      if (this.form.source !== 'recorded' || this.form.recordedPool !== name) return;
      this.recorded = { name, workers };
      this.form.methods = this.preset(workers);
    } catch (e) {
      this.recordedError = toBatonError(e).message;
    }
  }

  get busy(): boolean {
    return BUSY.includes(this.progress.status);
  }

  get opened(): StoredEvaluation | undefined {
    return this.evaluations.find((e) => e.id === this.openId);
  }

  /** The evaluations ticked to compare, oldest first. */
  get compared(): StoredEvaluation[] {
    return this.evaluations.filter((e) => this.compareIds.includes(e.id)).reverse();
  }

  /** Follows the worker's progress; the list is read again whenever an evaluation stops or ends. */
  connect(): void {
    if (this.#connected) return;
    this.#connected = true;
    let wasBusy = false;
    watchEvaluation((p) => {
      this.progress = p;
      const busy = BUSY.includes(p.status);
      if (wasBusy && !busy) void this.refresh().then(() => (this.openId = p.evalId ?? this.openId));
      wasBusy = busy;
    }).catch((e: unknown) => {
      this.#connected = false;
      this.actionError = toBatonError(e).message;
    });
    void this.refresh();
    void evaluatorInService()
      .subjects()
      .then((s) => (this.subjects = s));
  }

  async refresh(): Promise<void> {
    await runAction(this, async () => {
      this.evaluations = await evaluatorInService().list();
    });
  }

  /** The data as the form names it. */
  source(): EvalDataSource | undefined {
    const f = this.form;
    const mapping = { map: f.map, ...(f.kind ? { kind: f.kind } : {}), skipBad: f.skipBad };
    if (f.source === 'builtin')
      return { from: 'builtin', name: f.builtin, ...(f.builtin === 'mmlu' && f.subjects.length ? { subjects: [...f.subjects] } : {}) };
    if (f.source === 'hub') return { from: 'hub', dataset: f.hubDataset.trim(), ...mapping };
    if (f.source === 'recorded') return { from: 'recorded', pool: f.recordedPool };
    const format = this.file && formatOfFile(this.file.name);
    return this.file && format ? { from: 'file', name: this.file.name, format, ...mapping } : undefined;
  }

  /** Every method: those checked, then those typed (one per line). */
  methods(): string[] {
    const typed = this.form.extraMethods
      .split('\n')
      .map((m) => m.trim())
      .filter((m) => m !== '');
    return [...new Set([...this.form.methods, ...typed])];
  }

  settings(pool: WorkerSpec[]): EvalSettings | undefined {
    const data = this.source();
    if (!data) return undefined;
    const f = $state.snapshot(this.form);
    return {
      data,
      offset: f.offset,
      ...(f.limit !== null ? { limit: f.limit } : {}),
      methods: this.methods(),
      repeats: f.repeats,
      concurrency: f.concurrency,
      ...(f.budgetUsd !== null ? { budgetUsd: f.budgetUsd } : {}),
      seed: f.seed,
      maxSteps: f.maxSteps,
      pool: $state.snapshot(pool) as WorkerSpec[],
      ...(Object.keys(this.plans).length ? { plans: { ...this.plans } } : {}),
    };
  }

  /** Reads plan files (Conductor completions) and checks their fixed:<name> methods. */
  async pickPlans(files: readonly File[]): Promise<void> {
    const read = await Promise.all(files.map(async (f) => [f.name, await f.text()] as const));
    this.plans = { ...this.plans, ...Object.fromEntries(read) };
    this.form.methods = [...new Set([...this.form.methods, ...read.map(([name]) => `fixed:${name}`)])];
  }

  /** Reads the user's data in the worker: how many items, and every bad row by line. */
  async checkData(): Promise<void> {
    const data = this.source();
    this.preview = undefined;
    this.previewError = undefined;
    if (!data || data.from === 'builtin' || data.from === 'recorded' || (data.from === 'hub' && data.dataset === '')) return;
    try {
      const f = this.form;
      this.preview = await evaluatorInService().preview(
        { data, offset: f.offset, ...(f.limit !== null ? { limit: f.limit } : {}) },
        await this.file?.arrayBuffer(),
      );
    } catch (e) {
      this.previewError = toBatonError(e).message;
    }
  }

  async start(pool: WorkerSpec[]): Promise<void> {
    const settings = this.settings(pool);
    if (!settings) {
      this.actionError = 'Pick a JSONL, CSV or Parquet file first.';
      return;
    }
    await runAction(this, async () => {
      const file = settings.data.from === 'file' ? await this.file?.arrayBuffer() : undefined;
      this.openId = await evaluatorInService().start(settings, file, await this.#keysFor(settings), lazyCodeRunner());
      await this.refresh();
    });
  }

  /** Continues a stored evaluation; one that spent its budget takes the form's Budget, when one is set. */
  async resume(evaluation: StoredEvaluation): Promise<void> {
    const budget = evaluation.status === 'over-budget' && this.form.budgetUsd !== null ? this.form.budgetUsd : undefined;
    await runAction(this, async () => {
      await evaluatorInService().resume(evaluation.id, await this.#keysFor(evaluation.settings), lazyCodeRunner(), budget);
      this.openId = evaluation.id;
      await this.refresh();
    });
  }

  stop(): Promise<void> {
    return runAction(this, () => evaluatorInService().stop());
  }

  async remove(id: string): Promise<void> {
    await runAction(this, async () => {
      await evaluatorInService().delete(id);
      this.compareIds = this.compareIds.filter((c) => c !== id);
      if (this.openId === id) this.openId = undefined;
      await this.refresh();
    });
  }

  /** The keys of the pool's workers and of a remote endpoint playing the Conductor. */
  #keysFor(settings: EvalSettings): Promise<Record<string, string>> {
    const remote = settings.methods.map((m) => parseMethodSpec(m, 'web')).find((s) => s.kind === 'conductor' && s.conductor.kind === 'remote-endpoint');
    const conductor: ConductorChoice = remote?.kind === 'conductor' ? remote.conductor : { kind: 'random-routing' };
    return this.keys.unlockedKeys(slotsNeeded({ pool: settings.pool, conductor }));
  }
}

let shared: EvaluateState | undefined;

/**
 * The tab's one EvaluateState: its watch on the worker and the form outlive a visit to another page.
 * `preset` gives the methods checked at first over a pool; `pool` is the user's.
 */
export function evaluateState(keys: KeysState, preset: (pool: readonly WorkerSpec[]) => string[], pool: WorkerSpec[]): EvaluateState {
  if (!shared) {
    shared = new EvaluateState(keys, preset);
    shared.form.methods = preset(pool);
    shared.connect();
  }
  return shared;
}
