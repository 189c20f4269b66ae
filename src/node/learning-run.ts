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
  const baselines = await hindsightBaselines(routingWorkflows(pool.length, r.maxSteps), heldOut, pool.map(createSimulatedWorker));
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
