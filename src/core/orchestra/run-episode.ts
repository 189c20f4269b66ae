import { EPISODE_VERSION, type Episode, type RoundRecord, type StepRecord } from '../episodes/index.ts';
import { toBatonError } from '../errors/index.ts';
import { addCosts, sumUsage } from '../pricing/index.ts';
import type { ChatMessage, WorkerModel } from '../providers/index.ts';
import { canGradeTask, computeReward, gradeTask, type CodeRunner, type Reward, type RewardScheme } from '../reward/index.ts';
import type { Task } from '../task.ts';
import {
  boundThread,
  buildConductorPrompt,
  buildRecursionTurn,
  DEFAULT_MAX_STEPS,
  parseWorkflow,
  type AccessMode,
  type ThreadTurn,
} from '../workflow/index.ts';
import { BudgetLedger } from './budget.ts';
import type { CallSlots } from './call-slots.ts';
import type { Conductor, ConductorOutput } from './conductor.ts';
import type { RunEventListener } from './events.ts';
import { executeWorkflow, sharedSteps, type StepOptions } from './execute-workflow.ts';
import type { SharedStep } from './worker-messages.ts';

export interface RunOptions extends StepOptions {
  /** Recursion rounds after the first (default 0). */
  recursionDepth?: number;
  maxSteps?: number;
  /** Access lists the Conductor may write (default 'binary', the paper's main method). */
  access?: AccessMode;
  /** Total dollar cap over every worker call of the run. */
  budgetUsd?: number;
  /** Show the workers' descriptions to the Conductor (off by default, as in the paper). */
  describeWorkers?: boolean;
  rewardScheme?: RewardScheme;
  /** The sandbox that grades code tasks; without one a code task's run has no reward. */
  codeRunner?: CodeRunner;
  tags?: string[];
  group?: string;
  /** The conversation the episode is a turn of (the Ask page's). */
  conversation?: Episode['conversation'];
}

interface RunEpisodeInput {
  /** The episode's id (default a fresh UUID): a caller that stores checkpoints can name the run up front. */
  id?: string;
  task: Task;
  /**
   * The conversation's earlier turns, when the task is a follow-up: bounded here (boundThread), then shown to
   * the Conductor in the Ask prompt and to every worker. A Conductor on its own prompt (trained) plans from the question alone.
   */
  thread?: readonly ThreadTurn[];
  pool: WorkerModel[];
  conductor: Conductor;
  /** The Conductor's first-round messages, where they are not the Ask prompt (a training run's own prompt); recursion turns continue them. */
  prompt?: ChatMessage[];
  options?: RunOptions;
  /** A dollar cap shared with other runs (a reward server's total, an evaluation's); replaces options.budgetUsd's own ledger. */
  budget?: BudgetLedger;
  /** A cap on worker calls in flight shared with other runs. */
  slots?: CallSlots;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  /**
   * The episode so far, at the start, after each plan and after each step: under the id the finished
   * episode will have, with status 'aborted' and an error saying it was interrupted. A caller that stores
   * it keeps a run cut off by a closed or reloaded page (whose end never comes) instead of losing it.
   */
  onCheckpoint?: (episode: Episode) => void;
}

/** What a checkpoint says happened, should the run never finish. */
export const INTERRUPTED_ERROR = {
  code: 'run/aborted',
  message: 'Interrupted: the run was cut off (the page was closed or reloaded) before it finished. What had finished by then is kept.',
} as const;

type Status = Episode['status'];

/** How a round's step errors end the run: stopped by the caller, by the budget, or by a failed call. */
function statusOfSteps(steps: StepRecord[], signal: AbortSignal | undefined): Status {
  const codes = steps.flatMap((s) => (s.error ? [s.error.code] : []));
  if (codes.length === 0) return 'ok';
  if (signal?.aborted) return 'aborted';
  if (codes.includes('run/budget')) return 'budget';
  return codes.every((c) => c === 'run/aborted') ? 'aborted' : 'infra-error';
}

function completionOf(output: ConductorOutput): RoundRecord['completion'] {
  return {
    text: output.text,
    ...(output.tokenIds ? { tokenIds: output.tokenIds } : {}),
    ...(output.logprobs ? { logprobs: output.logprobs } : {}),
    ...(output.usage ? { usage: output.usage } : {}),
    ...(output.costUsd !== undefined ? { costUsd: output.costUsd } : {}),
  };
}

async function rewardOf(task: Task, status: Status, answer: string, costUsd: number | null, options: RunOptions): Promise<Reward | undefined> {
  const grading = { codeRunner: options.codeRunner };
  if (!canGradeTask(task, grading) || status === 'aborted') return undefined;
  const parsed = status !== 'format-error';
  // A failed call or a budget stop says nothing about the Conductor's choice: flagged, never scored as wrong.
  const infraError = status === 'infra-error' || status === 'budget';
  const grade = parsed && !infraError ? await gradeTask(answer, task, grading) : undefined;
  return computeReward({ parsed, correct: grade?.correct ?? false, infraError, costUsd, ...(grade ? { details: grade.details } : {}) }, options.rewardScheme);
}

/**
 * One question end to end: the Conductor writes a workflow, the pool runs it, recursion rounds follow if
 * asked, and the answer is graded when the task has a gold answer. Nothing throws: stopping via `signal`
 * gives status 'aborted', a Conductor whose own call fails gives 'infra-error' with the error recorded.
 */
export async function runEpisode(input: RunEpisodeInput): Promise<Episode> {
  const { task, pool, conductor, signal } = input;
  const options = input.options ?? {};
  const listener = input.onEvent ?? (() => {});
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const access = options.access ?? 'binary';
  const depth = options.recursionDepth ?? 0;
  const budget = input.budget ?? (options.budgetUsd !== undefined ? new BudgetLedger(options.budgetUsd) : undefined);
  const id = input.id ?? crypto.randomUUID();
  const createdAt = new Date().toISOString();
  const started = performance.now();

  const thread = boundThread(input.thread ?? []);
  const rounds: RoundRecord[] = [];
  let messages: ChatMessage[] =
    input.prompt ??
    buildConductorPrompt({
      question: task.question,
      workers: pool.map((w) => w.spec),
      maxSteps,
      access,
      describeWorkers: options.describeWorkers,
      kind: task.kind,
      thread,
    });
  let status: Status = 'ok';
  let final = '';
  let answer = '';
  let previousRound: SharedStep[] | undefined;
  let error: Episode['error'];

  /** Tokens and dollars of the rounds so far: every finished step, and the Conductor's own calls. */
  const spending = () => {
    const allSteps = rounds.flatMap((r) => r.steps.filter(Boolean));
    const completions = rounds.map((r) => r.completion);
    return {
      usage: sumUsage([...allSteps.map((s) => s.usage), ...completions.flatMap((c) => (c.usage ? [c.usage] : []))]),
      // A step with an unknown cost (null) makes the total unknown; a Conductor without a bill (undefined) adds nothing.
      costUsd: [...allSteps, ...completions].reduce<number | null>((sum, c) => addCosts(sum, c.costUsd === undefined ? 0 : c.costUsd), 0),
    };
  };
  /** The episode from the rounds so far; a round whose steps are running holds those that finished. */
  const assemble = (status: Status, why: Episode['error'], reward?: Reward): Episode => {
    const first = rounds[0] ?? { prompt: messages, completion: { text: '' }, steps: [], final: '' };
    return {
      id,
      version: EPISODE_VERSION,
      createdAt,
      task,
      pool: pool.map((w) => w.spec),
      conductor: conductor.info,
      prompt: first.prompt,
      completion: first.completion,
      ...(first.workflow ? { workflow: first.workflow } : {}),
      ...(first.parseError !== undefined ? { parseError: first.parseError } : {}),
      steps: first.steps.filter(Boolean),
      rounds: rounds.slice(1).map((r) => ({ ...r, steps: r.steps.filter(Boolean) })),
      final,
      ...(reward ? { reward } : {}),
      ...(options.group !== undefined ? { group: options.group } : {}),
      ...(options.conversation ? { conversation: options.conversation } : {}),
      tags: options.tags ?? [],
      ...(why ? { error: why } : {}),
      totals: { ...spending(), latencyMs: performance.now() - started },
      status,
    };
  };
  const checkpoint = input.onCheckpoint && (() => input.onCheckpoint!(assemble('aborted', INTERRUPTED_ERROR)));
  const emit: RunEventListener = (e) => {
    listener(e);
    if (!checkpoint) return;
    if (e.type === 'step-done' || e.type === 'step-failed') {
      rounds[e.round].steps[e.index] = e.step;
      checkpoint();
    } else if (e.type === 'conductor-done') {
      checkpoint();
    }
  };
  checkpoint?.();

  for (let round = 0; round <= depth; round++) {
    let output: ConductorOutput;
    try {
      output = await conductor.generate({ messages, signal, onDelta: (text) => emit({ type: 'conductor-delta', round, text }) });
    } catch (e) {
      const failure = toBatonError(e);
      if (signal?.aborted || failure.code === 'run/aborted') {
        status = 'aborted';
      } else {
        // A pool worker playing the Conductor keeps to the spending limits as every paid worker does.
        status = failure.code === 'run/budget' ? 'budget' : 'infra-error';
        error = { code: failure.code, message: `The Conductor failed: ${failure.message}` };
        emit({ type: 'conductor-failed', round, error });
      }
      if (round === 0) rounds.push({ prompt: messages, completion: { text: '' }, steps: [], final: '' });
      break;
    }
    const parsed = parseWorkflow(output.text, { workers: pool.length, maxSteps, access, recursion: round > 0 });
    const record: RoundRecord = { prompt: output.prompt ?? messages, completion: completionOf(output), steps: [], final };
    rounds.push(record);
    const spent = { ...(output.usage ? { usage: output.usage } : {}), ...(output.costUsd !== undefined ? { costUsd: output.costUsd } : {}) };
    if (!parsed.ok) {
      record.parseError = parsed.error;
      emit({ type: 'conductor-done', round, completion: output.text, parseError: parsed.error, ...spent });
      emit({ type: 'round-done', round, record });
      status = 'format-error';
      break;
    }
    if (parsed.keep) {
      record.kept = true;
      emit({ type: 'conductor-done', round, completion: output.text, kept: true, ...spent });
      emit({ type: 'round-done', round, record });
      break;
    }
    record.workflow = parsed.workflow;
    emit({ type: 'conductor-done', round, completion: output.text, workflow: parsed.workflow, ...spent });
    const result = await executeWorkflow(parsed.workflow, {
      task,
      thread,
      pool,
      previousRound,
      options,
      budget,
      slots: input.slots,
      signal,
      onEvent: emit,
      round,
    });
    record.steps = result.steps;
    record.final = result.final;
    final = result.final;
    answer = result.answer;
    emit({ type: 'round-done', round, record });
    status = statusOfSteps(result.steps, signal);
    if (status !== 'ok' || round === depth) break;
    messages = buildRecursionTurn({ messages, completion: output.text, finalResponse: result.answer, maxSteps, access });
    previousRound = sharedSteps(result.steps);
  }

  const episode = assemble(status, error, await rewardOf(task, status, answer, spending().costUsd, options));
  emit({ type: 'run-done', episode });
  return episode;
}
