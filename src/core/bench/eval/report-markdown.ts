/** The report as a Markdown table, one row per method. */
import { hullPlace, type EvalReport } from './report.ts';

const pct = (x: number) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '–');
const num = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
const usd = (x: number) => (Number.isFinite(x) ? `$${Number(x.toPrecision(3))}` : '–');

export function reportMarkdown(report: EvalReport): string {
  const head =
    '| method | accuracy % | ± s.e. | graded | infra failures | malformed % | Conductor tokens/q | worker tokens/q | $/q | $ total | latency p50 ms | p95 ms | calls/q | Pareto |' +
    (report.hull ? ' single hull |' : '');
  const rule = `|${' --- |'.repeat(report.hull ? 15 : 14)}`;
  const rows = report.methods.map((m) =>
    [
      m.method,
      pct(m.accuracy),
      pct(m.stderr),
      `${m.graded}/${m.runs}`,
      String(m.infraFailures),
      pct(m.malformedRate),
      num(m.tokensPerQuestion.conductor),
      num(m.tokensPerQuestion.workers),
      usd(m.costUsd.perQuestion) + (m.costUsd.unknownRuns ? ` (${m.costUsd.unknownRuns} with a cost unknown)` : ''),
      usd(m.costUsd.total),
      num(m.latencyMs.p50),
      num(m.latencyMs.p95),
      num(m.callsPerQuestion, 2),
      report.pareto.includes(m.method) ? 'yes' : '',
      ...(report.hull ? [hullPlace(report, m.method)] : []),
    ].join(' | '),
  );
  const notes = [
    "Accuracy is the mean over items of each item's accuracy over its graded repeats; ± is its standard error over items.",
    'Runs with an infrastructure failure are counted apart and left out of the accuracy. The oracle counts a question right when any single worker got it right, at the cost of running them all; when none did and one failed, it counts an infrastructure failure. Dollars are those known: a call that failed before its provider said what it used adds none.',
    ...(report.hull
      ? [
          "Single hull: the single workers on the upper, non-decreasing convex hull of their (dollars, accuracy) points, what any mix of them reaches ('on'), and the methods more accurate than every such mix at their dollars ('above'). best-per-kind:λ=L sends each kind of task (its data set and task kind) to the single worker of the highest correct - L x dollars on these very runs (hindsight).",
        ]
      : []),
  ];
  return `${[head, rule, ...rows.map((r) => `| ${r} |`)].join('\n')}\n\n${notes.join('\n')}\n`;
}
