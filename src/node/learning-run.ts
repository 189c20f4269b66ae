/**
 * A Conductor trained from nothing, measured against routing with hindsight: a seeded random model
 * (random-conductor.ts), `baton train` on a built-in pool and task set, then its held-out accuracy
 * beside random routing, the best fixed workflow and the best workflow per kind on the same held-out
 * questions (core/bench's hindsightBaselines). Shared by `npm run bench:learn` and the demo
 * Conductor's build (make-demo-conductor.ts), so the figures the demo's README gives are the bench's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hindsightBaselines, routingWorkflows, type HindsightBaselines } from '../core/bench/index.ts';
import { createSimulatedWorker, DEMO_POOL, EXPERTS_POOL } from '../core/providers/simulated/index.ts';
import type { GrpoStepMetrics } from '../core/rl/index.ts';
import { main } from './cli.ts';
import type { CliIo } from './io.ts';
import { writeRandomConductor, type RandomConductorShape } from './random-conductor.ts';
import { readBuiltInTaskSet, type BUILT_IN_TASK_SETS } from './task-file.ts';

export const LEARNING_POOLS = { demo: DEMO_POOL, experts: EXPERTS_POOL } as const;

export interface LearningRun {
  shape: RandomConductorShape;
  pool: keyof typeof LEARNING_POOLS;
  tasks: (typeof BUILT_IN_TASK_SETS)[number];
  /** Most steps of a plan (the hindsight baselines enumerate plans of this many steps at most). */
  maxSteps: 1 | 2;
  /** `baton train`'s other flags: --steps, --questions, --group, --lr, --r, --subtasks, ... */
  flags: string[];
  seed: number;
  /** The base model goes to DIR/base, the run to DIR/run. */
  dir: string;
}

export interface LearningResult {
  metrics: GrpoStepMetrics[];
  /** Held-out accuracy at each evaluation, with the samples trained on by then. */
  curve: { step: number; samples: number; heldOutAccuracy: number }[];
  baselines: HindsightBaselines;
  heldOutQuestions: number;
  /** (last held-out accuracy - random routing) / (best per kind - random routing). */
  gapClosed: number;
}

export async function runLearning(r: LearningRun, io: CliIo): Promise<LearningResult> {
  const base = join(r.dir, 'base');
  const out = join(r.dir, 'run');
  await writeRandomConductor(base, r.shape);
  const args = ['train', '--model', base, '--pool', r.pool, '--tasks', r.tasks, '--constrain', '--prompt', 'compact', '--max-steps', String(r.maxSteps), '--seed', String(r.seed), '--out', out];
  const code = await main([...args, ...r.flags], io);
  if (code !== 0) throw new Error(`baton train exited with ${code}`);
  const metrics = (await readFile(join(out, 'metrics.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as GrpoStepMetrics);
  const { heldOut } = await readBuiltInTaskSet(r.tasks, r.seed);
  const pool = LEARNING_POOLS[r.pool];
  // Scored with no simulated latency: only the answers matter here, and the demo pool's workers take seconds a call.
  const instant = pool.map((w) => createSimulatedWorker({ ...w, simulated: { ...w.simulated!, latencyMs: 0 } }));
  const baselines = await hindsightBaselines(routingWorkflows(pool.length, r.maxSteps), heldOut, instant);
  const perStep = metrics[0] ? metrics[0].completions + metrics[0].excluded : 0;
  const curve = metrics.filter((m) => m.heldOutAccuracy !== undefined).map((m) => ({ step: m.step, samples: m.step * perStep, heldOutAccuracy: m.heldOutAccuracy! }));
  const final = curve.at(-1)?.heldOutAccuracy ?? Number.NaN;
  return {
    metrics,
    curve,
    baselines,
    heldOutQuestions: heldOut.length,
    gapClosed: (final - baselines.randomRouting) / (baselines.bestPerKind.accuracy - baselines.randomRouting),
  };
}

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
