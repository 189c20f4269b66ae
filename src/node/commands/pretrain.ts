/**
 * `baton pretrain`: next-token training of every weight of a Conductor (core/rl's languageModelStep over
 * engine/train's GpuTrainer) on the prompts a `baton train` run with the same --pool, --tasks, --prompt,
 * --question-chars and --max-steps shows it, so that a Conductor trained from scratch reads the question before
 * GRPO teaches it to route (docs/learning.md). Each prompt is followed by the opening of a plan naming a worker
 * drawn at random, so that what it learns from the questions' text (digits are common there) does not tilt its
 * first plans towards one worker: GRPO explores from a near-uniform choice, as from the random start. Writes
 * OUT/model/ (a model directory `baton train --model` takes)
 * and OUT/metrics.jsonl; Ctrl-C ends it after the step in progress, with the model as it then stands.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { languageModelLoss, languageModelStep, trainedPrompt, type LanguageModelStepResult } from '../../core/rl/index.ts';
import { seededRandom } from '../../core/random.ts';
import type { Task } from '../../core/task.ts';
import { DEFAULT_MAX_STEPS } from '../../core/workflow/index.ts';
import { EnginePolicy } from '../../engine/runtime/index.ts';
import { GpuTrainer } from '../../engine/train/index.ts';
import { atLeast, choice, CliError, int, num, parseFlags, positive, printHelp, text, type CliIo } from '../cli/index.ts';
import { POOL_FLAG, readPoolFlag, readTasksFlag } from '../inputs/index.ts';
import { MODEL_FLAGS, modelRefOf, openNodeModel } from '../models/index.ts';
import { outputDir, writeModelDir } from '../stores/index.ts';

/** How a plan opens (core/workflow/constrain writes its lists so); the worker's id follows. */
const PLAN_HEAD = 'model_id = [';

/** Held-out prompts whose loss is measured before and after: enough for a steady mean, few enough to be quick. */
const HELD_OUT_PROMPTS = 64;

const FLAGS = {
  model: MODEL_FLAGS.model,
  pool: POOL_FLAG,
  tasks: text({ arg: 'T', help: 'a built-in task set (split train/held-out by --seed), a built-in data set, or a JSONL of {question, ...}' }),
  prompt: choice(['ask', 'compact'], { arg: 'P', help: "ask (the Ask page's prompt) or compact (question and pool size only)", default: 'compact' }),
  'question-chars': int({ arg: 'N', help: "with --prompt compact: the question's first N characters, as baton train's flag", check: atLeast(1) }),
  'max-steps': int({ arg: 'K', help: 'the most workflow steps the prompt names, as baton train', default: DEFAULT_MAX_STEPS, check: atLeast(1) }),
  steps: int({ arg: 'N', help: 'optimiser steps', default: 200, check: atLeast(1) }),
  batch: int({ arg: 'B', help: 'prompts per step, drawn at random from the training questions', default: 16, check: atLeast(1) }),
  'micro-batch': int({ arg: 'M', help: 'prompts per forward/backward pass (default: --batch)', check: atLeast(1) }),
  lr: num({ arg: 'LR', help: 'learning rate, constant (AdamW)', default: 3e-3, check: positive }),
  seed: int({ arg: 'S', help: 'seeds the draws of prompts and the task split', default: 0 }),
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
};

const HELP = {
  usage: `usage: baton pretrain --model DIR --pool P --tasks T --out DIR [options]

Trains every weight of the model at DIR as a language model on the Conductor prompts of the training
questions: --pool, --tasks, --prompt, --question-chars and --max-steps as the \`baton train\` run that
follows will give them, so the prompts are the same text, each followed by a plan's opening ('model_id = ['
and a worker drawn at random, so that its first plans still spread over the pool). Meant for a Conductor
made by \`baton init-model\`, which otherwise starts unable to read (docs/learning.md). Prints a line a
step on stderr; writes OUT/model/ and OUT/metrics.jsonl (a line a step); at the end prints one JSON line
with the mean next-token loss on up to ${HELD_OUT_PROMPTS} held-out prompts before and after, where the task
set has held-out questions.
`,
  flags: FLAGS,
};

export async function pretrainCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  const { modelDir } = modelRefOf(values, io.cwd);
  if (!values.pool) throw new CliError('--pool is required: the prompt names the pool it plans over', 2);
  if (!values.tasks) throw new CliError('--tasks is required: the questions whose prompts it trains on', 2);
  if (values['question-chars'] !== undefined && values.prompt !== 'compact') throw new CliError('--question-chars needs --prompt compact', 2);
  const workers = await readPoolFlag(io, values.pool);
  const split = await readTasksFlag(io, values.tasks, values.seed);
  if (split.train.length === 0) throw new CliError(`--tasks ${values.tasks}: no training questions`, 2);
  const out = await outputDir(io, values.out, [modelDir]);

  const format = {
    prompt: values.prompt,
    constrain: true,
    maxSteps: values['max-steps'],
    ...(values['question-chars'] === undefined ? {} : { questionChars: values['question-chars'] }),
  };
  const prompt = trainedPrompt(format);
  const loaded = await openNodeModel({ modelDir, weights: 'f32', withTokenizer: true });
  try {
    const policy = new EnginePolicy(loaded.model, loaded.tokenizer!);
    const idsOf = (tasks: readonly Task[]) => tasks.map((t) => policy.promptIds(prompt(t, workers, { maxSteps: format.maxSteps, access: 'binary' })));
    // The plan's opening as the constrained sampler writes it ('model_id = [' then the id), for each worker.
    const planHeads = workers.map((_, i) => loaded.tokenizer!.encode(`${PLAN_HEAD}${i}`));
    const random = seededRandom(values.seed);
    const withPlanHead = (ids: number[]) => [...ids, ...planHeads[Math.floor(random() * planHeads.length)]];
    const train = idsOf(split.train);
    const heldOut = idsOf(split.heldOut.slice(0, HELD_OUT_PROMPTS)).map(withPlanHead);
    const micro = values['micro-batch'] ?? values.batch;
    const trainer = await GpuTrainer.create(loaded.model, {
      wrt: 'weights',
      optimizer: { lr: values.lr },
      limits: {
        microBatchSequences: micro,
        maxSequenceLength: Math.max(...train.map((ids) => ids.length), ...heldOut.map((ids) => ids.length)) + Math.max(...planHeads.map((h) => h.length)),
      },
    });
    try {
      const heldOutBefore = heldOut.length > 0 ? await languageModelLoss(trainer, heldOut, micro) : undefined;
      const draw = () => withPlanHead(train[Math.floor(random() * train.length)]);
      const { last, stopped } = await trainSteps(trainer, draw, { steps: values.steps, batch: values.batch, micro, out, io });
      const heldOutAfter = heldOut.length > 0 ? await languageModelLoss(trainer, heldOut, micro) : undefined;
      await writeModelDir(join(out, 'model'), modelDir, await trainer.weightsFile());
      io.stdout(
        `${JSON.stringify({ out, step: last?.step ?? 0, stopped, trainPrompts: train.length, loss: last?.loss, ...(heldOutBefore === undefined ? {} : { heldOutBefore, heldOutAfter }) })}\n`,
      );
      return stopped ? 130 : 0;
    } finally {
      trainer.destroy();
    }
  } finally {
    loaded.close();
  }
}

/** The steps, each on --batch sequences drawn; Ctrl-C stops after the step in progress. */
async function trainSteps(
  trainer: GpuTrainer,
  draw: () => number[],
  o: { steps: number; batch: number; micro: number; out: string; io: CliIo },
): Promise<{ last?: LanguageModelStepResult; stopped: boolean }> {
  const metricsFile = join(o.out, 'metrics.jsonl');
  await writeFile(metricsFile, '');
  let stopped = false;
  const stop = () => (stopped = true);
  process.once('SIGINT', stop);
  const started = performance.now();
  let last: LanguageModelStepResult | undefined;
  try {
    for (let step = 1; step <= o.steps && !stopped; step++) {
      const batch = Array.from({ length: o.batch }, draw);
      const stepStarted = performance.now();
      last = await languageModelStep(trainer, batch, { microBatchSize: o.micro });
      const timeMs = performance.now() - stepStarted;
      await appendFile(metricsFile, `${JSON.stringify({ ...last, timeMs })}\n`);
      const left = Math.round((((performance.now() - started) / step) * (o.steps - step)) / 1000);
      o.io.stderr(
        `step ${step}/${o.steps}  loss ${last.loss.toFixed(3)}  grad norm ${last.gradNorm.toFixed(3)}${last.skipped ? `  no update: ${last.skipped}` : ''}  ${(timeMs / 1000).toFixed(1)} s  ~${left}s left\n`,
      );
    }
  } finally {
    process.off('SIGINT', stop);
  }
  return { ...(last ? { last } : {}), stopped };
}
