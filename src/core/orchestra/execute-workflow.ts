import type { StepRecord } from '../episodes/index.ts';
import { BatonError, toBatonError } from '../errors/index.ts';
import { costUsd } from '../pricing/index.ts';
import type { WorkerModel } from '../providers/index.ts';
import type { Task } from '../task.ts';
import type { Step, ThreadTurn, Workflow } from '../workflow/index.ts';
import { visibleSteps } from './access.ts';
import type { BudgetLedger } from './budget.ts';
import type { CallSlots } from './call-slots.ts';
import type { RunEventListener } from './events.ts';
import { buildWorkerMessages, type SharedStep } from './worker-messages.ts';

/** Worker settings of training (docs/method.md), used where neither the run nor the spec sets one. */
export const DEFAULT_STEP_MAX_TOKENS = 4096;
const DEFAULT_STEP_TEMPERATURE = 0.2;

export interface StepOptions {
  /** Output token cap per step (default: the worker spec's, else 4096). */
  maxTokens?: number;
  temperature?: number;
  /** Per-call timeout in ms, passed to the worker. */
  timeoutMs?: number;
  /** Run steps one after another in order instead of as soon as what they see is done (same results). */
  sequential?: boolean;
  /** Ask again when a worker's stream breaks off part-way: for callers that show no step text as it streams (see CallRequest). */
  retryCutStreams?: boolean;
}

interface ExecuteContext {
  task: Task;
  pool: WorkerModel[];
  /** The conversation the task follows up, bounded: shown to every step. */
  thread?: readonly ThreadTurn[];
  /** A recursion round's previous steps: shown to this round's steps whose access is "all". */
  previousRound?: SharedStep[];
  options?: StepOptions;
  budget?: BudgetLedger;
  /** A cap on worker calls in flight shared with other runs: a step waits for a slot before it reserves budget. */
  slots?: CallSlots;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  /** Recursion round number, for events (default 0). */
  round?: number;
}

export interface WorkflowResult {
  steps: StepRecord[];
  /** The last step's response (the workflow's final answer). */
  final: string;
  /** The last non-empty response: what grading reads. */
  answer: string;
}

/** The steps of a finished round as a later round's "previous round" block shows them. */
export function sharedSteps(steps: StepRecord[]): SharedStep[] {
  return steps.map((s) => ({ worker: s.worker, subtask: s.subtask, response: s.output }));
}

function emptyRecord(step: Step, index: number, workerId: string): StepRecord {
  return {
    index,
    worker: step.worker,
    workerId,
    subtask: step.subtask,
    access: step.access,
    messages: [],
    output: '',
    usage: { input: 0, output: 0 },
    costUsd: 0,
    latencyMs: 0,
    attempts: 0,
  };
}

type CallOutcome = { ok: true; record: StepRecord } | { ok: false; record: StepRecord; error: BatonError };

function attemptsOf(error: BatonError): number {
  const n = error.data?.attempts;
  return typeof n === 'number' ? n : 1;
}

/** What a stream that broke off had sent: kept on its failed step, as the person watching saw it. */
function partialTextOf(error: BatonError): string {
  const text = error.data?.partialText;
  return typeof text === 'string' ? text : '';
}

/**
 * Runs one workflow over the pool. A step starts as soon as every step it can see is done, so `[]` steps
 * run at once and together; the results are the same as running the steps in order. A failed call is
 * recorded on its step, and after it (or an abort) no further step starts: their records say why.
 */
export async function executeWorkflow(workflow: Workflow, ctx: ExecuteContext): Promise<WorkflowResult> {
  const round = ctx.round ?? 0;
  const options = ctx.options ?? {};
  const emit = ctx.onEvent ?? (() => {});
  const records: StepRecord[] = new Array(workflow.steps.length);
  let stopReason: string | undefined;

  const stopped = (): string | undefined => stopReason ?? (ctx.signal?.aborted ? 'the run was stopped' : undefined);

  const fail = (record: StepRecord, error: BatonError): void => {
    record.error = { code: error.code, message: error.message };
    records[record.index] = record;
    // No step number here: surfaces number steps differently, and stepOutcome names the steps from the records.
    stopReason ??=
      error.code === 'run/aborted' ? 'the run was stopped' : error.code === 'run/budget' ? 'another step could pass the budget' : 'another step failed';
    emit({ type: 'step-failed', round, index: record.index, step: record });
  };

  const runStep = async (index: number): Promise<void> => {
    const step = workflow.steps[index];
    const worker = ctx.pool[step.worker];
    const base = emptyRecord(step, index, worker?.spec.id ?? `#${step.worker}`);
    const reason = stopped();
    if (reason !== undefined) {
      return fail(base, new BatonError({ code: 'run/aborted', message: `Not started: ${reason}.` }));
    }
    if (!worker) {
      return fail(
        base,
        new BatonError({
          code: 'run/config',
          message: `Step ${index + 1} asks for model id ${step.worker}, but the pool has ${ctx.pool.length} workers.`,
        }),
      );
    }
    const visible = visibleSteps(step.access, index).map((j) => ({
      worker: workflow.steps[j].worker,
      subtask: workflow.steps[j].subtask,
      response: records[j].output,
    }));
    const messagesFor = (w: WorkerModel) =>
      buildWorkerMessages({
        question: ctx.task.question,
        thread: ctx.thread,
        subtask: step.subtask,
        visible,
        previousRound: step.access === 'all' ? ctx.previousRound : undefined,
        prefill: w.supportsPrefill,
      });
    const record = { ...base, messages: messagesFor(worker) };
    let freeSlot: (() => void) | undefined;
    try {
      if (ctx.slots) freeSlot = await ctx.slots.acquire(ctx.signal);
    } catch (e) {
      return fail(record, toBatonError(e, 'run/aborted'));
    }
    try {
      // Another step may have failed while this one waited for its slot.
      const late = stopped();
      if (late !== undefined) return fail(record, new BatonError({ code: 'run/aborted', message: `Not started: ${late}.` }));
      const first = await callWorker(record, worker);
      const fallback = first.ok ? undefined : fallbackFor(worker, first.error);
      if (first.ok || !fallback) return finish(first.record, first);
      const { record: failed } = first;
      const second = await callWorker(
        { ...base, worker: fallback.index, workerId: fallback.worker.spec.id, messages: messagesFor(fallback.worker) },
        fallback.worker,
      );
      second.record.fallback = {
        from: {
          worker: failed.worker,
          workerId: failed.workerId,
          error: { code: first.error.code, message: first.error.message },
          usage: failed.usage,
          costUsd: failed.costUsd,
          latencyMs: failed.latencyMs,
          attempts: failed.attempts,
        },
      };
      finish(second.record, second);
    } finally {
      freeSlot?.();
    }
  };

  /**
   * The pool worker a failed call falls back to: the one its spec names, once per step (a fallback's own
   * fallback is never tried, so fallbacks cannot loop). Only for a provider's failure past its retries: a
   * refused key is the user's to fix, and a stream that had shown text would show a second answer after it.
   */
  const fallbackFor = (worker: WorkerModel, error: BatonError): { worker: WorkerModel; index: number } | undefined => {
    const id = worker.spec.fallback;
    if (id === undefined || id === worker.spec.id || ctx.signal?.aborted) return undefined;
    if (!error.code.startsWith('provider/') || error.code === 'provider/auth' || partialTextOf(error) !== '') return undefined;
    const index = ctx.pool.findIndex((w) => w.spec.id === id);
    return index < 0 ? undefined : { worker: ctx.pool[index], index };
  };

  const finish = (record: StepRecord, outcome: CallOutcome): void => {
    if (!outcome.ok) return fail(record, outcome.error);
    records[record.index] = record;
    emit({ type: 'step-done', round, index: record.index, step: record });
  };

  /** One worker call for a step, within the budget: the record filled in with what it answered, or why it failed. */
  const callWorker = async (record: StepRecord, worker: WorkerModel): Promise<CallOutcome> => {
    const index = record.index;
    const messages = record.messages;
    const maxTokens = options.maxTokens ?? worker.spec.maxTokens ?? DEFAULT_STEP_MAX_TOKENS;
    let settle: ((actual: number | null) => void) | undefined;
    try {
      settle = ctx.budget?.reserve(worker.spec, messages, maxTokens);
    } catch (e) {
      return { ok: false, record, error: toBatonError(e, 'run/budget') };
    }
    emit({ type: 'step-started', round, index, messages });
    const started = performance.now();
    try {
      const result = await worker.call({
        messages,
        maxTokens,
        temperature: options.temperature ?? worker.spec.temperature ?? DEFAULT_STEP_TEMPERATURE,
        timeoutMs: options.timeoutMs,
        retryCutStreams: options.retryCutStreams,
        signal: ctx.signal,
        task: ctx.task,
        onDelta: (text) => emit({ type: 'step-delta', round, index, text }),
      });
      record.output = result.text;
      record.usage = result.usage;
      record.costUsd = costUsd(result.usage, worker.spec.price);
      record.latencyMs = result.latencyMs;
      record.attempts = result.attempts;
      if (result.fromCache) record.fromCache = true;
      // A response from the cache was paid for once, by the call that fetched it.
      settle?.(result.fromCache ? 0 : record.costUsd);
      return { ok: true, record };
    } catch (e) {
      const error = ctx.signal?.aborted ? new BatonError({ code: 'run/aborted', message: 'Stopped.', cause: e }) : toBatonError(e, 'provider/server');
      record.output = partialTextOf(error);
      record.latencyMs = performance.now() - started;
      record.attempts = attemptsOf(error);
      // A call never sent (a spending limit refused it) cost nothing; otherwise spending is unknown: keep the
      // worst case reserved, never assume it was free.
      record.costUsd = record.attempts === 0 ? 0 : null;
      settle?.(record.costUsd);
      return { ok: false, record, error };
    }
  };

  const done: Promise<void>[] = [];
  workflow.steps.forEach((step, index) => {
    emit({ type: 'step-queued', round, index, worker: step.worker, workerId: ctx.pool[step.worker]?.spec.id ?? `#${step.worker}` });
  });
  workflow.steps.forEach((step, index) => {
    const after = options.sequential ? done.slice(-1) : visibleSteps(step.access, index).map((j) => done[j]);
    done.push(after.length === 0 ? runStep(index) : Promise.all(after).then(() => runStep(index)));
  });
  await Promise.all(done);

  // A failed step's partial text is no answer.
  const outputs = records.map((r) => (r.error ? '' : r.output));
  return {
    steps: records,
    final: outputs.at(-1) ?? '',
    answer: [...outputs].reverse().find((o) => o.trim() !== '') ?? '',
  };
}
