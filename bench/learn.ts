/**
 * Does the Conductor learn? A small Conductor initialised from scratch (as `baton init-model` makes
 * it) is trained by `baton train` on a simulated pool where the workflow matters (the demo pool, or
 * the experts pool), and its held-out accuracy (one greedy plan per question) is set beside what routing alone reaches with hindsight on the same held-out questions:
 * random routing, the best fixed workflow and the best workflow per task kind (bench/learning-run.ts
 * over core/bench/eval/hindsight.ts). gapClosed is (final - random routing) / (best per kind - random routing).
 * With --pool routellm-mmlu (GPT-4 and Mixtral replaying RouteLLM's records over MMLU; tasks routellm-mmlu)
 * the reward is cost-aware: --cost-weight defaults to the weight whose objective (core/reward's accuracyLambda)
 * makes per-subject routing chosen on the training questions send half of them to GPT-4, --scale-rewards to
 * none, and costRouting reports the Conductor's held-out accuracy and GPT-4 share beside each model alone,
 * random routing at that share and per-subject routing with hindsight under the same objective.
 *
 * Run: npm run bench:learn -- [--pool demo|experts|routellm-mmlu] [--tasks experts-short|experts|routellm-mmlu] [--steps 30]
 *        [--questions 4] [--group 8] [--lr 1e-2] [--r 8] [--eval-every 5] [--seed 1] [--max-completion-tokens 56]
 *        [--max-subtask-chars 6] [--max-steps 2] [--hidden 64] [--subtasks free|fixed] [--full]
 *        [--cost-weight L] [--scale-rewards group|batch|none] [--held-out-questions N] [--subjects a,b]
 *        [--plot FILE.svg] [--keep DIR]
 * --subjects keeps the MMLU subjects named (of --tasks experts or routellm-mmlu), for a run small enough for a CPU.
 * Prints one JSON line; --plot writes the curve beside the baselines as an SVG (bench/LEARNING.md).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { accuracyLambda, costWeightFor } from '../src/core/reward/index.ts';
import { processIo } from '../src/node/cli/index.ts';
import { isBuiltInPool, isBuiltInTaskSet } from '../src/node/inputs/index.ts';
import { benchConductorShape, learningCurveSvg, mmluHalfShareLambda, mmluRoutingReport, runLearning } from './learning-run.ts';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string' },
    pool: { type: 'string', default: 'demo' },
    steps: { type: 'string', default: '30' },
    questions: { type: 'string', default: '4' },
    group: { type: 'string', default: '8' },
    lr: { type: 'string', default: '1e-2' },
    r: { type: 'string', default: '8' },
    'eval-every': { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    'max-completion-tokens': { type: 'string', default: '56' },
    'max-subtask-chars': { type: 'string', default: '6' },
    'max-steps': { type: 'string', default: '2' },
    hidden: { type: 'string', default: '64' },
    subtasks: { type: 'string', default: 'free' },
    full: { type: 'boolean', default: false },
    'cost-weight': { type: 'string' },
    'scale-rewards': { type: 'string' },
    'held-out-questions': { type: 'string' },
    subjects: { type: 'string' },
    plot: { type: 'string' },
    keep: { type: 'string' },
  },
});
const poolName = values.pool;
if (!isBuiltInPool(poolName)) throw new Error(`--pool must be demo, experts or routellm-mmlu, got ${poolName}`);
const mmlu = poolName === 'routellm-mmlu';
const tasks = values.tasks ?? (mmlu ? 'routellm-mmlu' : 'experts-short');
if (!isBuiltInTaskSet(tasks)) throw new Error(`--tasks must be experts, experts-short or routellm-mmlu, got ${tasks}`);
const maxSteps = Number(values['max-steps']);
if (maxSteps !== 1 && maxSteps !== 2) throw new Error(`--max-steps must be 1 or 2, got ${maxSteps}`);
const seed = Number(values.seed);
const hidden = Number(values.hidden);
const costWeight = values['cost-weight'] !== undefined ? Number(values['cost-weight']) : mmlu ? costWeightFor(await mmluHalfShareLambda(seed)) : 0;
const scaleRewards = values['scale-rewards'] ?? (mmlu ? 'none' : 'group');

const work = values.keep ? resolve(values.keep) : await mkdtemp(join(tmpdir(), 'baton-bench-learn-'));
const started = performance.now();
try {
  const { metrics, curve, baselines, heldOut, gapClosed } = await runLearning(
    {
      shape: benchConductorShape(hidden, seed),
      pool: poolName,
      tasks,
      maxSteps,
      flags: [
        '--max-completion-tokens',
        values['max-completion-tokens'],
        '--max-subtask-chars',
        values['max-subtask-chars'],
        '--subtasks',
        values.subtasks,
        '--steps',
        values.steps,
        '--questions',
        values.questions,
        '--group',
        values.group,
        '--lr',
        values.lr,
        '--r',
        values.r,
        '--targets',
        'all',
        '--eval-every',
        values['eval-every'],
        ...(values.full ? ['--full'] : []),
        '--cost-weight',
        String(costWeight),
        '--scale-rewards',
        scaleRewards,
      ],
      seed,
      ...(values['held-out-questions'] ? { heldOutLimit: Number(values['held-out-questions']) } : {}),
      ...(values.subjects ? { subjects: values.subjects.split(',') } : {}),
      dir: work,
    },
    { ...processIo(), stdout: () => {} },
  );
  const summary = {
    bench: 'learn',
    pool: poolName,
    tasks,
    heldOutQuestions: heldOut.length,
    ...(values.subjects ? { subjects: values.subjects.split(',') } : {}),
    settings: {
      hidden,
      full: values.full,
      subtasks: values.subtasks,
      maxSteps,
      steps: Number(values.steps),
      questions: Number(values.questions),
      group: Number(values.group),
      lr: Number(values.lr),
      r: Number(values.r),
      costWeight,
      scaleRewards,
      seed,
    },
    curve,
    rewardMean: metrics.map((m) => round(m.rewardMean)),
    workerChoicesLastStep: metrics.at(-1)?.workerChoices,
    baselines: {
      randomRouting: round(baselines.randomRouting),
      bestFixed: round(baselines.bestFixed.accuracy),
      bestPerKind: round(baselines.bestPerKind.accuracy),
    },
    final: curve.at(-1)?.heldOutAccuracy,
    gapClosed: round(gapClosed),
    ...(mmlu ? { costRouting: await mmluRoutingReport(join(work, 'run'), heldOut, accuracyLambda(costWeight)) } : {}),
    timeS: Math.round((performance.now() - started) / 1000),
  };
  if (values.plot)
    await writeFile(values.plot, learningCurveSvg(curve, baselines, `${poolName} pool, ${tasks}: held-out accuracy of a Conductor trained from scratch`));
  console.log(JSON.stringify(summary));
} finally {
  if (!values.keep) await rm(work, { recursive: true, force: true });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
