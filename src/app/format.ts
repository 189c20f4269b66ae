/** How numbers read in the UI: tokens, seconds and dollars with a sensible precision. */
import type { Episode, StepRecord } from '../core/episodes/index.ts';
import type { Usage } from '../core/providers/index.ts';

export function formatUsd(usd: number | null): string {
  if (usd === null) return '$?';
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(3)}`;
}

export function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

export function formatTokens(usage: Usage): string {
  return `${usage.input + usage.output} tok`;
}

export function formatStepStats(step: Pick<StepRecord, 'usage' | 'latencyMs' | 'costUsd'>): string {
  return `${formatTokens(step.usage)} · ${formatSeconds(step.latencyMs)} · ${formatUsd(step.costUsd)}`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** The end of a streaming text, so a small box shows what was written last. */
export function tail(text: string, chars: number): string {
  return text.length <= chars ? text : `…${text.slice(text.length - chars)}`;
}

/** How an episode's status reads to someone who never saw the code: a short tag and why there is no answer. */
export const STATUS_TEXT: Record<Episode['status'], { tag: string; noAnswer: string }> = {
  ok: { tag: 'answered', noAnswer: 'the workers gave no text.' },
  'format-error': { tag: 'plan unreadable', noAnswer: "the Conductor's plan could not be read (see above)." },
  'infra-error': { tag: 'a call failed', noAnswer: 'a worker call failed (see the step below).' },
  aborted: { tag: 'stopped', noAnswer: 'the run was stopped before it finished.' },
  budget: {
    tag: 'budget reached',
    noAnswer: 'a call was not made because it could pass the budget per run or a spending limit of the day or month (see the step below, and Settings).',
  },
};
