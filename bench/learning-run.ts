/**
 * A Conductor trained from nothing, measured against routing with hindsight: a seeded random model
 * (src/node/models/random-conductor.ts), `baton train` on a built-in pool and task set, then its held-out accuracy
 * beside random routing, the best fixed workflow and the best workflow per kind on the same held-out
 * questions (core/bench's hindsightBaselines). Shared by `npm run bench:learn` and the demo
 * Conductor's build (make-demo-conductor.ts), so the figures the demo's README gives are the bench's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mmluSubject } from '../src/core/bench/datasets/index.ts';
import {
  hindsightBaselines,
  lambdaForShare,
  perGroupRouting,
  randomRoutingAccuracy,
  readShippedReplay,
  routingOutcomes,
  routingPoint,
  routingWorkflows,
  singleWorkerPoints,
  type BUILT_IN_TASK_SETS,
  type HindsightBaselines,
  type RoutingOutcomes,
  type RoutingPoint,
} from '../src/core/bench/index.ts';
import type { Episode } from '../src/core/episodes/index.ts';
import type { WorkerModel } from '../src/core/providers/index.ts';
import type { GrpoStepMetrics } from '../src/core/rl/index.ts';
import type { Task, TaskSplit } from '../src/core/task.ts';
import { FIXED_SUBTASKS } from '../src/core/workflow/constrain/index.ts';
import { main } from '../src/node/main.ts';
import type { CliIo } from '../src/node/cli/index.ts';
import { buildPool, builtInPool, NODE_DATA_FILES, readBuiltInTaskSet, type BuiltInPool } from '../src/node/inputs/index.ts';
import { writeRandomConductor, type RandomConductorShape } from '../src/node/models/index.ts';

/**
 * The Conductor the learning benches train from scratch: Qwen3's shape, 2 layers, 4 heads (2 for keys and values),
 * an MLP twice the width, Qwen's tokenizer cut to 1,536 ids, tied embeddings, f32 weights (full fine-tuning needs them).
 */
export const benchConductorShape = (hidden: number, seed: number): RandomConductorShape => ({
  architecture: 'qwen3',
  hidden,
  intermediate: 2 * hidden,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  vocab: 1536,
  tied: true,
  dtype: 'F32',
  seed,
});

export interface LearningRun {
  shape: RandomConductorShape;
  pool: BuiltInPool;
  tasks: (typeof BUILT_IN_TASK_SETS)[number];
  /** Most steps of a plan (the hindsight baselines enumerate plans of this many steps at most). */
  maxSteps: 1 | 2;
  /** `baton train`'s other flags: --steps, --questions, --group, --lr, --r, --subtasks, ... */
  flags: string[];
  seed: number;
  /** Evaluate on the first N held-out questions only (a quick run on a CPU; default all). */
  heldOutLimit?: number;
  /** Train and evaluate on these MMLU subjects of the task set alone (a smaller run; default all). */
  subjects?: readonly string[];
  /** The base model goes to DIR/base, the run to DIR/run. */
  dir: string;
}

export interface LearningResult {
  metrics: GrpoStepMetrics[];
  /** Held-out accuracy at each evaluation, with the samples trained on by then. */
  curve: { step: number; samples: number; heldOutAccuracy: number }[];
  baselines: HindsightBaselines;
  /** The questions the held-out figures are over. */
  heldOut: Task[];
  /** (last held-out accuracy - random routing) / (best per kind - random routing). */
  gapClosed: number;
}

export async function runLearning(r: LearningRun, io: CliIo): Promise<LearningResult> {
  const base = join(r.dir, 'base');
  const out = join(r.dir, 'run');
  await writeRandomConductor(base, r.shape);
  const split = selectSubjects(await readBuiltInTaskSet(r.tasks, r.seed), r.subjects);
  const heldOut = split.heldOut.slice(0, r.heldOutLimit);
  const writeTasks = async (name: string, tasks: readonly Task[]) => {
    await writeFile(join(r.dir, name), tasks.map((t) => JSON.stringify(t)).join('\n'));
    return join(r.dir, name);
  };
  const heldOutFile = await writeTasks('held-out.jsonl', heldOut);
  const train = r.subjects ? await writeTasks('train.jsonl', split.train) : r.tasks;
  const args = [
    'train',
    '--model',
    base,
    '--pool',
    r.pool,
    '--tasks',
    train,
    '--held-out',
    heldOutFile,
    '--constrain',
    '--prompt',
    'compact',
    '--max-steps',
    String(r.maxSteps),
    '--seed',
    String(r.seed),
    '--out',
    out,
  ];
  const code = await main([...args, ...r.flags], io);
  if (code !== 0) throw new Error(`baton train exited with ${code}`);
  const metrics = (await readFile(join(out, 'metrics.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as GrpoStepMetrics);
  const instant = await instantPool(r.pool);
  const baselines = await hindsightBaselines(routingWorkflows(instant.length, r.maxSteps), heldOut, instant);
  const perStep = metrics[0] ? metrics[0].completions + metrics[0].excluded : 0;
  const curve = metrics
    .filter((m) => m.heldOutAccuracy !== undefined)
    .map((m) => ({ step: m.step, samples: m.step * perStep, heldOutAccuracy: m.heldOutAccuracy! }));
  const final = curve.at(-1)?.heldOutAccuracy ?? Number.NaN;
  return {
    metrics,
    curve,
    baselines,
    heldOut,
    gapClosed: (final - baselines.randomRouting) / (baselines.bestPerKind.accuracy - baselines.randomRouting),
  };
}

/** The questions of a split in the MMLU subjects named (all of them without a list); refuses a list that keeps none, naming what it does not know. */
export function selectSubjects(split: TaskSplit, subjects: readonly string[] | undefined): TaskSplit {
  if (!subjects) return split;
  const known = new Set(split.train.map(mmluSubject));
  const unknown = subjects.filter((s) => !known.has(s));
  if (unknown.length > 0)
    throw new Error(
      `No question is in the subject${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the task set's subjects are ${[...known].sort().join(', ')}.`,
    );
  const keep = (t: Task) => subjects.includes(mmluSubject(t));
  return { train: split.train.filter(keep), heldOut: split.heldOut.filter(keep) };
}

/** A built-in pool's workers with no simulated latency: only the answers matter here, and the demo pool's workers take seconds a call. */
export async function instantPool(name: BuiltInPool): Promise<WorkerModel[]> {
  const specs = (await builtInPool(name)).map((w) => (w.simulated ? { ...w, simulated: { ...w.simulated, latencyMs: 0 } } : w));
  const replayed = specs.filter((w) => w.provider === 'replay').map((w) => w.model);
  return buildPool(specs, {}, replayed.length > 0 ? await readShippedReplay(NODE_DATA_FILES, replayed) : undefined, undefined);
}

/** Where the routing of the routellm-mmlu run stands: worker 0 (GPT-4) is the strong, dear one. */
const STRONG = 0;

export interface CostRoutingReport {
  /** The lambda of right - lambda x dollars that the run's reward ranks plans by (core/reward's accuracyLambda). */
  lambda: number;
  /** The Conductor at each held-out evaluation. */
  conductor: (RoutingPoint & { step: number; randomAtShare: number })[];
  /** Each worker alone, in pool order. */
  singles: RoutingPoint[];
  /** Every subject sent to the worker of the higher reward at lambda, chosen on the held-out questions themselves. */
  perSubject: RoutingPoint;
}

/**
 * The lambda of right - lambda x dollars at which per-subject routing, chosen with hindsight on the training
 * questions, sends half of them to GPT-4: dollars weighed so that the subject decides the worker. docs/learning.md's
 * MMLU replay run trains with the cost weight of that objective (core/reward's costWeightFor).
 */
export async function mmluHalfShareLambda(seed: number, share = 0.5): Promise<number> {
  const { train } = await readBuiltInTaskSet('routellm-mmlu', seed);
  return lambdaForShare(await routingOutcomes(train, await instantPool('routellm-mmlu'), FIXED_SUBTASKS[0], mmluSubject), STRONG, share);
}

/** The Conductor's held-out routing in a routellm-mmlu run (from its episodes) beside the baselines on the same questions. */
export async function mmluRoutingReport(runDir: string, heldOut: readonly Task[], lambda: number): Promise<CostRoutingReport> {
  const outcomes = await routingOutcomes(heldOut, await instantPool('routellm-mmlu'), FIXED_SUBTASKS[0], mmluSubject);
  const episodes = await readEpisodes(runDir);
  const byStep = new Map<number, Episode[]>();
  for (const e of episodes) {
    if (!e.tags.includes('held-out') || !e.reward || e.reward.infraError) continue;
    const step = Number(e.tags.find((t) => t.startsWith('step:'))!.slice('step:'.length));
    byStep.set(step, [...(byStep.get(step) ?? []), e]);
  }
  const conductor = [...byStep].map(([step, eps]) => {
    const strongShare = strongShareOf(eps);
    return {
      step,
      accuracy: eps.filter((e) => e.reward!.correct).length / eps.length,
      strongShare,
      dollarsPerQuestion: eps.reduce((sum, e) => sum + e.steps.reduce((d, s) => d + (s.costUsd ?? 0), 0), 0) / eps.length,
      randomAtShare: randomRoutingAccuracy(outcomes, STRONG, strongShare),
    };
  });
  return {
    lambda,
    conductor,
    singles: singleWorkerPoints(outcomes, STRONG),
    perSubject: routingPoint(outcomes, perGroupRouting(outcomes, lambda).choice, STRONG),
  };
}

/**
 * routellm-mmlu's held-out questions as `baton eval` ran them (its OUT directory): routing by subject with hindsight
 * at each lambda of right - lambda x dollars, over the evaluation's own `singles` runs (pool order, GPT-4 first), and
 * the share of each of `methods`' questions that went to GPT-4.
 */
export async function mmluSubjectRouting(evalDir: string, singles: readonly string[], lambdas: readonly number[], methods: readonly string[]) {
  const byMethod = new Map<string, Episode[]>();
  for (const e of await readEpisodes(evalDir)) {
    const method = e.tags.find((t) => t.startsWith('method:'))?.slice('method:'.length);
    if (method !== undefined) byMethod.set(method, [...(byMethod.get(method) ?? []), e]);
  }
  const of = (method: string) => byMethod.get(method) ?? [];
  const byItem = singles.map((m) => new Map(of(m).map((e) => [e.task.itemId, e])));
  const items = [...byItem[STRONG].keys()];
  const outcomes: RoutingOutcomes = {
    outcomes: byItem.map((runs) =>
      items.map((item) => {
        const e = runs.get(item)!;
        return { correct: e.reward?.correct === true, costUsd: e.totals.costUsd ?? 0 };
      }),
    ),
    group: items.map((item) => mmluSubject(byItem[STRONG].get(item)!.task)),
  };
  return {
    perSubject: lambdas.map((lambda) => ({ lambda, ...routingPoint(outcomes, perGroupRouting(outcomes, lambda).choice, STRONG) })),
    strongShare: Object.fromEntries(methods.map((m) => [m, strongShareOf(of(m))])),
  };
}

/** The episodes a `baton train` or `baton eval` OUT directory holds. */
async function readEpisodes(dir: string): Promise<Episode[]> {
  return (await readFile(join(dir, 'episodes.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Episode);
}

/** The share of these runs whose plan calls GPT-4. */
const strongShareOf = (episodes: readonly Episode[]) => episodes.filter((e) => e.steps.some((s) => s.worker === STRONG)).length / episodes.length;

/** The held-out accuracy curve over samples seen, with the hindsight baselines as horizontal lines. */
export function learningCurveSvg(curve: readonly { samples: number; heldOutAccuracy: number }[], b: HindsightBaselines, title: string): string {
  const [W, H, left, right, top, bottom] = [640, 360, 56, 150, 36, 44];
  const maxX = Math.max(1, ...curve.map((p) => p.samples));
  const x = (v: number) => left + ((W - left - right) * v) / maxX;
  const y = (v: number) => top + (H - top - bottom) * (1 - v);
  const lines = [
    { label: `best per kind ${pct(b.bestPerKind.accuracy)}`, value: b.bestPerKind.accuracy, color: '#2a7' },
    { label: `best fixed ${pct(b.bestFixed.accuracy)}`, value: b.bestFixed.accuracy, color: '#c80' },
    { label: `random routing ${pct(b.randomRouting)}`, value: b.randomRouting, color: '#888' },
  ];
  const path = curve.map((p, i) => `${i ? 'L' : 'M'}${x(p.samples).toFixed(1)},${y(p.heldOutAccuracy).toFixed(1)}`).join(' ');
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">
<rect width="${W}" height="${H}" fill="#fff"/>
<text x="${left}" y="20" font-size="14">${title}</text>
${ticks.map((t) => `<line x1="${left}" x2="${W - right}" y1="${y(t)}" y2="${y(t)}" stroke="#eee"/><text x="${left - 8}" y="${y(t) + 4}" text-anchor="end">${pct(t)}</text>`).join('\n')}
${lines.map((l) => `<line x1="${left}" x2="${W - right}" y1="${y(l.value)}" y2="${y(l.value)}" stroke="${l.color}" stroke-dasharray="6 4"/><text x="${W - right + 6}" y="${y(l.value) + 4}" fill="${l.color}">${l.label}</text>`).join('\n')}
<path d="${path}" fill="none" stroke="#25c" stroke-width="2"/>
${curve.map((p) => `<circle cx="${x(p.samples).toFixed(1)}" cy="${y(p.heldOutAccuracy).toFixed(1)}" r="3" fill="#25c"/>`).join('\n')}
<text x="${(left + W - right) / 2}" y="${H - 10}" text-anchor="middle">training samples (questions x group x steps)</text>
<line x1="${left}" x2="${W - right}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>
<line x1="${left}" x2="${left}" y1="${y(0)}" y2="${y(1)}" stroke="#333"/>
</svg>
`;
}

function pct(v: number): string {
  return `${Math.round(v * 100)}%`;
}
