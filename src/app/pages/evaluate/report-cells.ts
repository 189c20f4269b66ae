/** A method report's figures as the Evaluate page's tables print them ('–' where a figure is undefined). */
import type { MethodReport } from '../../../core/bench/index.ts';
import { formatSeconds } from '../../format.ts';

const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
const usd = (v: number) => (Number.isFinite(v) ? `$${v < 0.01 && v > 0 ? v.toPrecision(2) : v.toFixed(4)}` : '–');

export const accuracyText = (m: MethodReport) => `${fixed(m.accuracy, 3)} ± ${fixed(m.stderr, 3)}`;

/** The columns after the method and its accuracy, in order. */
export const REPORT_COLUMNS: { title: string; cell: (m: MethodReport) => string }[] = [
  { title: 'Right / graded', cell: (m) => `${m.correct} / ${m.graded}` },
  { title: 'Tokens: Conductor / workers', cell: (m) => `${fixed(m.tokensPerQuestion.conductor, 0)} / ${fixed(m.tokensPerQuestion.workers, 0)}` },
  { title: '$ / question', cell: (m) => usd(m.costUsd.perQuestion) + (m.costUsd.unknownRuns ? ` (${m.costUsd.unknownRuns} with a cost unknown)` : '') },
  { title: '$ total', cell: (m) => usd(m.costUsd.total) },
  {
    title: 'Latency p50 / p95',
    cell: (m) => (Number.isFinite(m.latencyMs.p50) ? `${formatSeconds(m.latencyMs.p50)} / ${formatSeconds(m.latencyMs.p95)}` : '–'),
  },
  { title: 'Calls / question', cell: (m) => fixed(m.callsPerQuestion, 1) },
  { title: 'Malformed', cell: (m) => (Number.isFinite(m.malformedRate) ? `${(m.malformedRate * 100).toFixed(0)}%` : '–') },
  { title: 'Infra failures', cell: (m) => String(m.infraFailures) },
];
