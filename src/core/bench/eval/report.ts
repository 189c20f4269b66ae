/**
 * The evaluation report, computed from the stored episodes alone (so it can be recomputed by anyone
 * holding them): per method accuracy with its standard error over items (statistics.ts), tokens of the
 * Conductor and of the workers, dollars, latency percentiles, calls per question, the malformed-workflow
 * rate, and infrastructure failures counted apart (never scored as wrong). The oracle row counts a run
 * (item, repeat) right when any single worker's run of it is right, wrong when all of them were graded
 * wrong, and an infrastructure failure when none is right and some failed (the failed one might have been
 * right); it costs what all of them cost. Dollars are what the runs are known to have cost: a call that
 * failed before its provider reported its usage adds nothing, and the runs holding one are counted.
 * The hindsight rows (best-per-kind:λ=L) send each kind of task, its data set and task kind (RouterBench's ARC and
 * Winogrande are both multiple choice, yet two kinds), to the single worker of the highest reward
 * correct - L x dollars over that kind's runs, chosen on these very runs: what routing by kind reaches when
 * it knows the answers. `hull` and `aboveHull` place every method on RouterBench's cost-quality plane
 * (cost-quality-hull.ts) against the single workers' hull.
 */
import { knownCostUsd, type Episode } from '../../episodes/index.ts';
import { costQualityHull, sideOfHull } from './cost-quality-hull.ts';
import { itemAccuracy, mean, percentile } from './statistics.ts';
import { runKeyOf, type RunKey } from './run-key.ts';

export interface MethodReport {
  method: string;
  /** Finished runs (item x repeat). */
  runs: number;
  /** Graded runs: finished, gradable, no infrastructure failure. */
  graded: number;
  correct: number;
  accuracy: number;
  /** Standard error of the accuracy over items (see itemAccuracy). */
  stderr: number;
  /** Runs a worker or the Conductor failed for reasons outside the method (excluded from accuracy). */
  infraFailures: number;
  /** Runs without a grade: the task has no grader here (e.g. code before the sandbox). */
  ungraded: number;
  /** Runs whose workflow did not parse, over runs. */
  malformedRate: number;
  /** Mean tokens (input + output) per run. */
  tokensPerQuestion: { conductor: number; workers: number };
  /** Known dollars (total, and per run); unknownRuns: runs with a call whose cost is unknown, so the figures are at least these. */
  costUsd: { total: number; perQuestion: number; unknownRuns: number };
  latencyMs: { p50: number; p95: number };
  callsPerQuestion: number;
}

export interface EvalReport {
  evaluation: Record<string, unknown>;
  methods: MethodReport[];
  /** Methods on the accuracy-versus-dollars Pareto front (no other is at least as accurate and as cheap, and better in one). */
  pareto: string[];
  /** The single:<worker> methods on the single workers' non-decreasing convex hull, cheapest first (absent before this field existed). */
  hull?: string[];
  /** Methods above that hull: more accurate than any mix of single workers at their dollars. */
  aboveHull?: string[];
}

interface RunFacts {
  key: RunKey;
  /** The task's data set and kind: what the hindsight rows route by. */
  kind: string;
  graded: boolean;
  correct: boolean;
  infra: boolean;
  malformed: boolean;
  conductorTokens: number;
  workerTokens: number;
  /** Known dollars; costUnknown: some call's cost is not known. */
  costUsd: number;
  costUnknown: boolean;
  latencyMs: number;
  calls: number;
}

const tokens = (u: { input: number; output: number } | undefined) => (u ? u.input + u.output : 0);

function factsOf(e: Episode, key: RunKey): RunFacts {
  const rounds = [{ completion: e.completion, steps: e.steps }, ...e.rounds];
  const steps = rounds.flatMap((r) => r.steps);
  const conductorTokens = rounds.reduce((s, r) => s + tokens(r.completion.usage), 0);
  const infra = e.status === 'infra-error' || e.reward?.infraError === true;
  return {
    key,
    kind: `${e.task.dataset ?? ''} ${e.task.kind}`,
    graded: e.reward !== undefined && !infra,
    correct: e.reward?.correct === true && !infra,
    infra,
    malformed: e.status === 'format-error',
    conductorTokens,
    workerTokens: steps.reduce((s, st) => s + tokens(st.usage), 0),
    costUsd: knownCostUsd(e),
    costUnknown: e.totals.costUsd === null,
    latencyMs: e.totals.latencyMs,
    // A step the executor never started made no call; a Conductor with usage made one per round.
    calls: steps.filter((s) => s.attempts > 0).length + rounds.filter((r) => r.completion.usage).length,
  };
}

function summarise(method: string, runs: RunFacts[]): MethodReport {
  const byItem = new Map<string, boolean[]>();
  for (const r of runs) if (r.graded) byItem.set(r.key.item, [...(byItem.get(r.key.item) ?? []), r.correct]);
  const { accuracy, stderr } = itemAccuracy(byItem);
  const total = runs.reduce((s, r) => s + r.costUsd, 0);
  return {
    method,
    runs: runs.length,
    graded: runs.filter((r) => r.graded).length,
    correct: runs.filter((r) => r.correct).length,
    accuracy,
    stderr,
    infraFailures: runs.filter((r) => r.infra).length,
    ungraded: runs.filter((r) => !r.graded && !r.infra).length,
    malformedRate: mean(runs.map((r) => (r.malformed ? 1 : 0))),
    tokensPerQuestion: { conductor: mean(runs.map((r) => r.conductorTokens)), workers: mean(runs.map((r) => r.workerTokens)) },
    costUsd: { total, perQuestion: runs.length ? total / runs.length : NaN, unknownRuns: runs.filter((r) => r.costUnknown).length },
    latencyMs: {
      p50: percentile(
        runs.map((r) => r.latencyMs),
        50,
      ),
      p95: percentile(
        runs.map((r) => r.latencyMs),
        95,
      ),
    },
    callsPerQuestion: mean(runs.map((r) => r.calls)),
  };
}

/** One oracle run per (item, repeat) that some single worker ran. */
function oracleRuns(singles: RunFacts[][]): RunFacts[] {
  const groups = new Map<string, RunFacts[]>();
  for (const r of singles.flat()) {
    const k = JSON.stringify([r.key.item, r.key.repeat]);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()].map((g) => {
    const correct = g.some((r) => r.correct);
    const infra = !correct && g.some((r) => r.infra);
    return {
      key: { method: 'oracle', item: g[0].key.item, repeat: g[0].key.repeat },
      kind: g[0].kind,
      graded: correct || (!infra && g.some((r) => r.graded)),
      correct,
      infra,
      malformed: false,
      conductorTokens: 0,
      workerTokens: g.reduce((s, r) => s + r.workerTokens, 0),
      costUsd: g.reduce((s, r) => s + r.costUsd, 0),
      costUnknown: g.some((r) => r.costUnknown),
      latencyMs: Math.max(...g.map((r) => r.latencyMs)),
      calls: g.reduce((s, r) => s + r.calls, 0),
    };
  });
}

export const hindsightMethod = (lambda: number) => `best-per-kind:λ=${lambda}`;

/** The runs of each kind's single worker of the highest reward correct - lambda x dollars over that kind (the cheaper on a tie). */
function hindsightRuns(singles: RunFacts[][], lambda: number): RunFacts[] {
  const kinds = new Set(singles.flat().map((r) => r.kind));
  return [...kinds].flatMap((kind) => {
    const ofKind = singles.map((runs) => runs.filter((r) => r.kind === kind));
    const total = (runs: RunFacts[], f: (r: RunFacts) => number) => runs.reduce((s, r) => s + f(r), 0);
    const value = (w: number) => total(ofKind[w], (r) => (r.correct ? 1 : 0) - lambda * r.costUsd);
    const cost = (w: number) => total(ofKind[w], (r) => r.costUsd);
    const best = ofKind.map((_, w) => w).reduce((b, w) => (value(w) > value(b) || (value(w) === value(b) && cost(w) < cost(b)) ? w : b));
    return ofKind[best].map((r) => ({ ...r, key: { ...r.key, method: hindsightMethod(lambda) } }));
  });
}

/** Where a method of the report lies against its single workers' hull: 'on' it, 'above' it, or '' (under it, or no hull). */
export const hullPlace = (report: Pick<EvalReport, 'hull' | 'aboveHull'>, method: string): 'on' | 'above' | '' =>
  report.hull?.includes(method) ? 'on' : report.aboveHull?.includes(method) ? 'above' : '';

/** The single methods on the hull, and every method above it. */
function placeOnHull(methods: readonly MethodReport[], singles: readonly string[]): Pick<EvalReport, 'hull' | 'aboveHull'> {
  const point = (m: MethodReport) => ({ method: m.method, cost: m.costUsd.perQuestion, accuracy: m.accuracy });
  const hull = costQualityHull(methods.filter((m) => singles.includes(m.method)).map(point));
  if (hull.length === 0) return {};
  return {
    hull: hull.map((p) => p.method),
    aboveHull: methods
      .filter((m) => Number.isFinite(m.accuracy) && Number.isFinite(m.costUsd.perQuestion) && sideOfHull(hull, point(m)) === 'above')
      .map((m) => m.method),
  };
}

export function paretoFront(rows: readonly Pick<MethodReport, 'method' | 'accuracy' | 'costUsd'>[]): string[] {
  const points = rows.filter((r) => Number.isFinite(r.accuracy) && Number.isFinite(r.costUsd.perQuestion));
  return points
    .filter(
      (p) =>
        !points.some(
          (q) =>
            q !== p &&
            q.accuracy >= p.accuracy &&
            q.costUsd.perQuestion <= p.costUsd.perQuestion &&
            (q.accuracy > p.accuracy || q.costUsd.perQuestion < p.costUsd.perQuestion),
        ),
    )
    .map((p) => p.method);
}

/**
 * The report of evaluation `evalId` over `methods` (in that order) from its episodes; episodes of other
 * evaluations, of other methods and unfinished ones are ignored. `oracle` adds the oracle row over the
 * pool's single:<worker> methods, `hindsight` a best-per-kind row over them for each lambda; with either, the
 * report places every method against the single workers' hull.
 */
export function buildReport(
  episodes: Iterable<Episode>,
  opts: {
    evalId: string;
    methods: readonly string[];
    oracle?: { singles: readonly string[] };
    hindsight?: { singles: readonly string[]; lambdas: readonly number[] };
    evaluation?: Record<string, unknown>;
  },
): EvalReport {
  const runs = new Map<string, RunFacts[]>(opts.methods.map((m) => [m, []]));
  for (const e of episodes) {
    const key = runKeyOf(e, opts.evalId);
    if (!key || e.status === 'aborted' || e.status === 'budget') continue;
    runs.get(key.method)?.push(factsOf(e, key));
  }
  const methods = opts.methods.map((m) => summarise(m, runs.get(m)!));
  const singleNames = opts.oracle?.singles ?? opts.hindsight?.singles;
  const singles = (singleNames ?? []).map((s) => runs.get(s) ?? []);
  if (opts.oracle) methods.push(summarise('oracle', oracleRuns(singles)));
  for (const lambda of opts.hindsight?.lambdas ?? []) methods.push(summarise(hindsightMethod(lambda), hindsightRuns(singles, lambda)));
  return {
    evaluation: { id: opts.evalId, ...opts.evaluation },
    methods,
    pareto: paretoFront(methods),
    ...(singleNames ? placeOnHull(methods, singleNames) : {}),
  };
}
