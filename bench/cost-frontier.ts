/**
 * Cost-aware Conductors on the cost-quality plane (docs/pools.md): on a replayed pool (zeroeval, routerbench, their
 * handfuls, routellm-mmlu), `baton train` trains one Conductor from scratch per lambda of the cost-aware reward (the
 * paper's 1 right, 0.5 wrong, minus lambda x dollars) on the task set's train split, then one `baton eval` on the
 * held-out questions sets them beside every single model, the per-question oracle, random routing and the best model
 * per kind with hindsight under each Conductor's own objective (right - 2 lambda x dollars: core/reward's
 * accuracyLambda), and writes the accuracy-versus-dollars plot with the single models' hull. Prints one JSON line:
 * every method's accuracy, dollars and side of the hull, the goal's check (a Conductor within 1 point of the best
 * single model at no more than 70% of its dollars), and what each phase took. routellm-mmlu's questions are all one
 * kind (MMLU multiple choice): its hindsight row is one model for all of them, and `bySubject` adds routing by subject
 * with hindsight at the same lambdas and each Conductor's share of questions on GPT-4.
 *
 * Sized for a CPU: plans of one step with fixed subtasks, the compact prompt reading --question-chars of the
 * question (its first 200 characters unless told), a 32-wide Conductor, the shared-prompt pass of the update.
 *
 * Run: npm run bench:cost-frontier -- --pool routerbench-4|zeroeval-4|routellm-mmlu|... [--tasks routerbench] [--lambdas 0,20,100 | auto]
 *        [--steps 30] [--questions 4] [--group 8] [--lr 1e-3] [--hidden 32] [--question-chars 200] [--pretrain-steps 0]
 *        [--every-plan] [--train-questions N] [--held-out-questions N] [--seed 1] [--plot FILE.svg] [--keep DIR]
 * --lambdas auto: 0.01, 0.05 and 0.2 over the dearest model's dollars per training question (its cost then takes
 * 0.01, 0.05 and 0.2 off a right answer's reward of 1). --steps 0 trains nothing and measures the baselines alone.
 * --pretrain-steps N first trains the random start as a language model on the training questions' prompts
 * (`baton pretrain`, 16 prompts a step), and every lambda's Conductor starts from that.
 * --every-plan trains on groups of every worker's plan (`baton train --every-plan`) instead of --group samples.
 * --keep DIR keeps every run in DIR, and the same command again continues a stopped one there: a Conductor whose
 * model is written is kept, one with checkpoints resumes from its newest (`baton train --resume`, the same steps
 * as an unbroken run), and a started evaluation resumes (`baton eval --resume`). The times printed are this
 * process's.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  costQualityHull,
  hindsightMethod,
  isBuiltInTaskSet,
  routingOutcomes,
  sideOfHull,
  singleWorkerPoints,
  type EvalReport,
} from '../src/core/bench/index.ts';
import { isRecordedPool, RECORDED_POOLS } from '../src/core/providers/replay/index.ts';
import { accuracyLambda } from '../src/core/reward/index.ts';
import type { WorkerModel } from '../src/core/providers/index.ts';
import type { Task } from '../src/core/task.ts';
import { FIXED_SUBTASKS } from '../src/core/workflow/constrain/index.ts';
import { main } from '../src/node/main.ts';
import { processIo, type CliIo } from '../src/node/cli/index.ts';
import { builtInPool, readBuiltInTaskSet } from '../src/node/inputs/index.ts';
import { writeRandomConductor } from '../src/node/models/index.ts';
import { benchConductorShape, instantPool, mmluSubjectRouting } from './learning-run.ts';

const { values } = parseArgs({
  options: {
    pool: { type: 'string', default: 'routerbench-4' },
    tasks: { type: 'string' },
    lambdas: { type: 'string', default: 'auto' },
    steps: { type: 'string', default: '30' },
    questions: { type: 'string', default: '4' },
    group: { type: 'string', default: '8' },
    lr: { type: 'string', default: '1e-3' },
    hidden: { type: 'string', default: '32' },
    'question-chars': { type: 'string', default: '200' },
    'pretrain-steps': { type: 'string', default: '0' },
    'every-plan': { type: 'boolean', default: false },
    'max-completion-tokens': { type: 'string', default: '48' },
    'train-questions': { type: 'string' },
    'held-out-questions': { type: 'string' },
    seed: { type: 'string', default: '1' },
    plot: { type: 'string' },
    keep: { type: 'string' },
  },
});

const pool = values.pool;
if (!isRecordedPool(pool) && pool !== 'routellm-mmlu') {
  throw new Error(`--pool must be a replayed pool (${[...Object.keys(RECORDED_POOLS), 'routellm-mmlu'].join(', ')}), got ${pool}`);
}
const tasks = values.tasks ?? (pool === 'routellm-mmlu' ? pool : RECORDED_POOLS[pool].source);
if (!isBuiltInTaskSet(tasks)) throw new Error(`--tasks must be a built-in task set, got ${tasks}`);
const seed = Number(values.seed);
const steps = Number(values.steps);
const hidden = Number(values.hidden);
const quiet: CliIo = { ...processIo(), stdout: () => {} };

const round = (x: number, digits = 4) => Number(x.toPrecision(digits));
const clock = () => {
  const started = performance.now();
  return () => Math.round((performance.now() - started) / 1000);
};

async function baton(io: CliIo, ...argv: string[]): Promise<void> {
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`baton ${argv[0]} exited with ${code}`);
}

/** 0.01, 0.05 and 0.2 over the dearest single model's dollars per question on (a sample of) the training questions. */
async function autoLambdas(train: readonly Task[], workers: WorkerModel[]): Promise<number[]> {
  const outcomes = await routingOutcomes(train.slice(0, 200), workers, FIXED_SUBTASKS[0], (t) => t.kind);
  const dearest = Math.max(...singleWorkerPoints(outcomes, 0).map((p) => p.dollarsPerQuestion));
  return [0.01, 0.05, 0.2].map((f) => round(f / dearest, 2));
}

/** A kept training run: 'done' once its model is written, 'started' with a checkpoint to resume from, else 'new'. */
async function trainingRun(dir: string): Promise<'done' | 'started' | 'new'> {
  if (existsSync(join(dir, 'model', 'config.json'))) return 'done';
  const checkpoints = await readdir(join(dir, 'checkpoints')).catch(() => []);
  return checkpoints.length > 0 ? 'started' : 'new';
}

const work = values.keep ? resolve(values.keep) : await mkdtemp(join(tmpdir(), 'baton-cost-frontier-'));
await mkdir(work, { recursive: true });
const io: CliIo = { ...quiet, cwd: work };
const total = clock();
try {
  const split = await readBuiltInTaskSet(tasks, seed);
  const train = values['train-questions'] ? split.train.slice(0, Number(values['train-questions'])) : split.train;
  await writeFile(join(work, 'train.jsonl'), train.map((t) => `${JSON.stringify(t)}\n`).join(''));
  const lambdas = values.lambdas === 'auto' ? await autoLambdas(train, await instantPool(pool)) : values.lambdas.split(',').map(Number);
  const specs = await builtInPool(pool);
  const singleMethods = specs.map((w) => `single:${w.id}`);
  // Each Conductor's twin with hindsight: the best model per kind under the objective its reward ranks plans by.
  const hindsightLambdas = lambdas.map((l) => round(accuracyLambda(l)));

  const trainTimes: Record<string, number> = {};
  const resumed: string[] = [];
  if (steps > 0) {
    if (!existsSync(join(work, 'base', 'config.json'))) {
      await writeRandomConductor(join(work, 'base'), benchConductorShape(hidden, seed));
    }
    const pretrainSteps = Number(values['pretrain-steps']);
    if (pretrainSteps > 0 && !existsSync(join(work, 'pretrained', 'model', 'config.json'))) {
      const took = clock();
      await rm(join(work, 'pretrained'), { recursive: true, force: true });
      await baton(
        io,
        'pretrain',
        ...['--model', 'base', '--pool', pool, '--tasks', 'train.jsonl', '--prompt', 'compact', '--question-chars', values['question-chars']],
        ...['--max-steps', '1', '--steps', String(pretrainSteps), '--seed', String(seed), '--out', 'pretrained'],
      );
      trainTimes.pretrain = took();
    }
    const start = pretrainSteps > 0 ? 'pretrained/model' : 'base';
    for (const lambda of lambdas) {
      const out = `lambda-${lambda}`;
      const state = await trainingRun(join(work, out));
      if (state === 'done') continue;
      const took = clock();
      if (state === 'started') {
        resumed.push(out);
        await baton(io, 'train', '--resume', out);
      } else {
        // Killed before its first checkpoint: nothing to keep.
        await rm(join(work, out), { recursive: true, force: true });
        // A Conductor per lambda, each from the same random start and seed: only the reward differs.
        await baton(
          io,
          'train',
          ...['--model', start, '--full', '--pool', pool, '--tasks', 'train.jsonl', '--constrain', '--prompt', 'compact'],
          ...['--question-chars', values['question-chars'], '--subtasks', 'fixed', '--max-steps', '1'],
          ...['--max-completion-tokens', values['max-completion-tokens'], '--steps', String(steps), '--questions', values.questions],
          ...(values['every-plan'] ? ['--every-plan'] : ['--group', values.group]),
          ...['--lr', values.lr, '--cost-weight', String(lambda), '--scale-rewards', 'none'],
          ...['--seed', String(seed), '--out', out],
        );
      }
      trainTimes[lambda] = took();
    }
  }

  const evalTook = clock();
  const conductors = steps > 0 ? lambdas.map((l) => `conductor:engine:lambda-${l}/model`) : [];
  if (existsSync(join(work, 'eval', 'eval.json'))) {
    resumed.push('eval');
    await baton(io, 'eval', '--out', 'eval', '--resume');
  } else {
    await baton(
      io,
      'eval',
      ...['--dataset', tasks, '--seed', String(seed), '--pool', pool, '--max-steps', '1', '--concurrency', '1'],
      ...(values['held-out-questions'] ? ['--limit', values['held-out-questions']] : []),
      ...singleMethods.flatMap((m) => ['--method', m]),
      ...['--method', 'oracle', '--method', 'random', '--method', `hindsight:${hindsightLambdas.join(',')}`],
      ...conductors.flatMap((m) => ['--method', m]),
      ...['--out', 'eval'],
    );
  }
  const evalS = evalTook();
  const bySubject = pool === 'routellm-mmlu' ? await mmluSubjectRouting(join(work, 'eval'), singleMethods, hindsightLambdas, conductors) : undefined;
  const report = JSON.parse(await readFile(join(work, 'eval', 'report.json'), 'utf8')) as EvalReport;
  if (values.plot) await copyFile(join(work, 'eval', 'plot.svg'), resolve(values.plot));

  const point = (m: EvalReport['methods'][number]) => ({ cost: m.costUsd.perQuestion, accuracy: m.accuracy });
  const hull = costQualityHull(report.methods.filter((m) => report.hull?.includes(m.method)).map(point));
  const singles = report.methods.filter((m) => m.method.startsWith('single:'));
  const best = singles.reduce((a, b) => (b.accuracy > a.accuracy || (b.accuracy === a.accuracy && b.costUsd.perQuestion < a.costUsd.perQuestion) ? b : a));
  const nearBest = (m: EvalReport['methods'][number]) => m.accuracy >= best.accuracy - 0.01 && m.costUsd.perQuestion <= 0.7 * best.costUsd.perQuestion;
  const rows = report.methods.map((m) => ({
    method: m.method,
    accuracy: round(m.accuracy),
    stderr: round(m.stderr, 2),
    dollarsPerQuestion: round(m.costUsd.perQuestion),
    hull: report.hull?.includes(m.method) ? 'on' : sideOfHull(hull, point(m)),
    malformedRate: round(m.malformedRate, 2),
  }));
  console.log(
    JSON.stringify({
      bench: 'cost-frontier',
      pool,
      tasks,
      seed,
      lambdas,
      hindsightLambdas,
      trainQuestions: train.length,
      heldOutQuestions: report.evaluation.items,
      settings: {
        steps,
        questions: Number(values.questions),
        group: values['every-plan'] ? 'every plan' : Number(values.group),
        lr: Number(values.lr),
        hidden,
        questionChars: Number(values['question-chars']),
        pretrainSteps: Number(values['pretrain-steps']),
      },
      methods: rows,
      bestSingle: { method: best.method, accuracy: round(best.accuracy), dollarsPerQuestion: round(best.costUsd.perQuestion) },
      goal: {
        conductorsAboveHull: conductors.filter((c) => report.aboveHull?.includes(c)),
        conductorsWithin1PointAt70PercentDollars: report.methods.filter((m) => conductors.includes(m.method) && nearBest(m)).map((m) => m.method),
        hindsightWithin1PointAt70PercentDollars: report.methods
          .filter((m) => hindsightLambdas.some((l) => m.method === hindsightMethod(l)) && nearBest(m))
          .map((m) => m.method),
      },
      ...(bySubject ? { bySubject } : {}),
      timeS: { train: trainTimes, eval: evalS, total: total() },
      resumed,
    }),
  );
} finally {
  if (!values.keep) await rm(work, { recursive: true, force: true });
}
