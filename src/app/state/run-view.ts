/**
 * What the Ask page shows of a run, built from the orchestra's events. Plain data and a pure reducer, so
 * it is tested without a browser (test/unit/app/state/run-view.test.ts); RunState wraps it in $state.
 */
import { stepOutcome, type Episode, type RunSpending, type StepOutcome, type StepRecord, type StepState } from '../../core/episodes/index.ts';
import type { RunEvent } from '../../core/orchestra/index.ts';
import { addCosts, sumUsage } from '../../core/pricing/index.ts';
import type { ChatMessage, Usage, WorkerSpec } from '../../core/providers/index.ts';
import type { Workflow } from '../../core/workflow/index.ts';
import { STATUS_TEXT } from '../format.ts';

type StepStatus = 'queued' | 'running' | StepState;

/** The app numbers steps from 1 (Step 1, the graph's nodes). */
const FIRST_STEP = 1;

export interface StepView {
  index: number;
  worker: number;
  status: StepStatus;
  messages: ChatMessage[];
  output: string;
  record?: StepRecord;
  /** How it ended, in words, once it has. */
  outcome?: StepOutcome;
}

interface RoundView {
  conductorText: string;
  conductorDone: boolean;
  /** Why the Conductor's own call failed, where it did: the round has no plan. */
  error?: { code: string; message: string };
  workflow?: Workflow;
  parseError?: string;
  kept?: boolean;
  /** The Conductor's own call, where it is billed (a pool worker playing it). */
  usage?: Usage;
  costUsd?: number | null;
  steps: StepView[];
}

export interface RunView {
  rounds: RoundView[];
  episode?: Episode;
}

export function emptyRunView(): RunView {
  return { rounds: [] };
}

function round(view: RunView, r: number): RoundView {
  while (view.rounds.length <= r) view.rounds.push({ conductorText: '', conductorDone: false, steps: [] });
  return view.rounds[r];
}

function step(view: RunView, r: number, index: number, worker = -1): StepView {
  const steps = round(view, r).steps;
  steps[index] ??= { index, worker, status: 'queued', messages: [], output: '' };
  return steps[index];
}

/** Applies one event in place (Svelte's $state proxy turns the writes into updates). */
export function applyRunEvent(view: RunView, e: RunEvent): void {
  switch (e.type) {
    case 'conductor-delta':
      round(view, e.round).conductorText += e.text;
      return;
    case 'conductor-done': {
      const r = round(view, e.round);
      Object.assign(r, {
        conductorText: e.completion,
        conductorDone: true,
        workflow: e.workflow,
        parseError: e.parseError,
        kept: e.kept,
        usage: e.usage,
        costUsd: e.costUsd,
      });
      return;
    }
    case 'conductor-failed': {
      const r = round(view, e.round);
      r.conductorDone = true;
      r.error = e.error;
      return;
    }
    case 'step-queued':
      step(view, e.round, e.index, e.worker).worker = e.worker;
      return;
    case 'step-started': {
      const s = step(view, e.round, e.index);
      s.status = 'running';
      s.messages = e.messages;
      return;
    }
    case 'step-delta':
      step(view, e.round, e.index).output += e.text;
      return;
    case 'step-done':
    case 'step-failed': {
      Object.assign(step(view, e.round, e.index, e.step.worker), { output: e.step.output, record: e.step });
      // A step that fails later can add to what held back the round's unstarted steps: every ended step is told again.
      const views = round(view, e.round).steps;
      const records = views.map((v) => v?.record);
      for (const v of views) {
        if (!v?.record) continue;
        v.outcome = stepOutcome(v.record, records, FIRST_STEP);
        v.status = v.outcome.state;
      }
      return;
    }
    case 'round-done':
      return;
    case 'run-done':
      view.episode = e.episode;
      return;
  }
}

/**
 * Tokens, seconds and dollars of the steps ended so far, and of the Conductor's calls where they are
 * billed (unknown price makes dollars unknown). Seconds add up the steps only; `steps` counts those done.
 */
export function runTotals(view: RunView): { usage: Usage; costUsd: number | null; latencyMs: number; steps: number } {
  const usages: Usage[] = [];
  let costUsd: number | null = 0;
  let latencyMs = 0;
  let steps = 0;
  for (const r of view.rounds) {
    if (r.usage) usages.push(r.usage);
    if (r.costUsd !== undefined) costUsd = addCosts(costUsd, r.costUsd);
    for (const s of r.steps) {
      if (!s?.record) continue;
      if (!s.record.error) steps++;
      usages.push(s.record.usage);
      costUsd = addCosts(costUsd, s.record.costUsd);
      latencyMs += s.record.latencyMs;
    }
  }
  return { usage: sumUsage(usages), costUsd, latencyMs, steps };
}

/** The run so far as the dollar notes read it: the steps ended, the pool, the Conductor's billed calls. */
export function runSpending(view: RunView, pool: readonly WorkerSpec[]): RunSpending {
  return {
    steps: view.rounds.flatMap((r) => r.steps.flatMap((s) => (s?.record ? [s.record] : []))),
    pool,
    conductorCosts: view.rounds.flatMap((r) => (r.costUsd === undefined ? [] : [r.costUsd])),
  };
}

/** Why a run has no answer, in words that follow "No answer: ". */
export function noAnswerReason(view: RunView, status: Episode['status']): string {
  return view.rounds.some((r) => r.error) ? "the Conductor's own call failed, so there was no plan (see above)." : STATUS_TEXT[status].noAnswer;
}

/**
 * A stored round's steps as the graph shows them when replaying: the first `shown` done, the rest queued.
 * Placed by their step index, since an interrupted run keeps only the steps that finished.
 */
export function replayViews(steps: StepRecord[], shown: number): StepView[] {
  const views: StepView[] = [];
  steps.forEach((s, i) => {
    const outcome = stepOutcome(s, steps, FIRST_STEP);
    views[s.index] =
      i < shown
        ? { index: s.index, worker: s.worker, status: outcome.state, messages: s.messages, output: s.output, record: s, outcome }
        : { index: s.index, worker: s.worker, status: 'queued', messages: [], output: '' };
  });
  return views;
}

/** A stored episode as the Ask page shows a finished turn: every round, every step ended, the answer. */
export function episodeView(episode: Episode): RunView {
  const rounds = [
    { prompt: episode.prompt, completion: episode.completion, workflow: episode.workflow, parseError: episode.parseError, steps: episode.steps, kept: false },
    ...episode.rounds,
  ];
  const views: RoundView[] = rounds.map((r, i) => ({
    conductorText: r.completion.text,
    conductorDone: true,
    // The Conductor's own call failed: the first round has no plan and the episode says why.
    ...(i === 0 && !r.workflow && r.parseError === undefined && episode.error ? { error: episode.error } : {}),
    ...(r.workflow ? { workflow: r.workflow } : {}),
    ...(r.parseError !== undefined ? { parseError: r.parseError } : {}),
    ...(r.kept ? { kept: true } : {}),
    ...(r.completion.usage ? { usage: r.completion.usage } : {}),
    ...(r.completion.costUsd !== undefined ? { costUsd: r.completion.costUsd } : {}),
    steps: replayViews(r.steps, r.steps.length),
  }));
  // The Conductor's own call failed in a later round, which was not stored: shown as that round, as it was live.
  const failedLater = episode.error && episode.status !== 'aborted' && !views.some((r) => r.error);
  if (failedLater) views.push({ conductorText: '', conductorDone: true, error: episode.error, steps: [] });
  return { episode, rounds: views };
}
