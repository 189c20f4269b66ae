/**
 * `baton train`'s flags and help, and the settings they make (TrainSettings, which run.ts runs): from
 * flags, from a --config file read as if its settings were flags given first, or, with --resume, from the
 * run's own config.json.
 */
import { resolve } from 'node:path';
import type { BatonError } from '../../../core/errors/index.ts';
import { parseProviderConcurrency } from '../../../core/orchestra/index.ts';
import { GRPO_LOSS_TYPES, REWARD_SCALINGS, TRAINING_DEFAULTS } from '../../../core/rl/index.ts';
import { DEFAULT_MAX_STEPS } from '../../../core/workflow/index.ts';
import { DEFAULT_MAX_SUBTASK_CHARS, FIXED_SUBTASKS } from '../../../core/workflow/constrain/index.ts';
import {
  atLeast,
  choice,
  CliError,
  flag,
  int,
  LORA_TARGETS_FLAG,
  num,
  positive,
  readTextFlag,
  text,
  toggle,
  type CliIo,
  type FlagValues,
} from '../../cli/index.ts';
import { checkPoolFlag, isBuiltInPool, isBuiltInTaskSet, POOL_FLAG, REPLAY_FLAG } from '../../inputs/index.ts';
import { MODEL_FLAGS, modelRefOf, type NodeModelRef } from '../../models/index.ts';
import type { TrainSettings } from './run.ts';

/** Optimiser steps unless told (with --from-episodes: one pass over the groups). */
const STEPS = 20;

export const FLAGS = {
  ...MODEL_FLAGS,
  lora: { ...MODEL_FLAGS.lora, help: 'PEFT LoRA adapter directory to start from; otherwise a new one of --r, --alpha, --targets' },
  r: int({ arg: 'R', help: "new adapter's rank", default: 8, check: atLeast(1) }),
  alpha: num({ arg: 'A', help: "new adapter's alpha (default 2 x r)" }),
  targets: { ...LORA_TARGETS_FLAG, default: [...TRAINING_DEFAULTS.loraTargets], help: "new adapter's modules: q_proj,...,down_proj or all" },
  full: toggle({
    help:
      'train every weight instead of an adapter (f32 master weights: --weights f32, the default then; beta 0, ' +
      'as there is no frozen reference); refused where it does not fit',
  }),
  pool: POOL_FLAG,
  replay: REPLAY_FLAG,
  tasks: text({
    arg: 'T',
    help:
      "a JSONL of {question, answer, kind, choices?} (kind code: answer is the tests' JSON, as baton grade --kind code takes it; " +
      'answers run in a Python sandbox), ' +
      "experts (MMLU and GSM8K from data/), routellm-mmlu (the MMLU questions of RouteLLM's records, in MMLU's standard prompt) or " +
      'experts-short (generated sums and "which is largest" questions: short prompts, fast training); the built-in sets are split train/held-out by --seed',
  }),
  'held-out': text({ arg: 'FILE', help: 'held-out tasks (JSONL, as --tasks); experts brings its own' }),
  'from-episodes': text({
    arg: 'FILE',
    help:
      "offline GRPO on stored groups instead of sampling: an episodes JSONL (the Episodes page's export, or a run's episodes.jsonl); " +
      'episodes sharing a group id form a group, their stored rewards its advantages; --questions groups a step, in file order; ' +
      'no pool or tasks needed',
  }),
  steps: int({ arg: 'N', help: `optimiser steps (default ${STEPS}; with --from-episodes one pass over the groups)`, check: atLeast(1) }),
  questions: int({ arg: 'Q', help: 'questions per step', default: 4, check: atLeast(1) }),
  group: int({ arg: 'G', help: 'workflows sampled per question', default: 8, check: atLeast(2) }),
  'every-plan': toggle({
    help:
      "each question's group is every one-step plan, one per worker, instead of --group samples: a routing Conductor's exact advantages, " +
      'with no worker left unsampled (needs --constrain --subtasks fixed --max-steps 1; runs every worker on every question: free on a recorded pool)',
  }),
  'pool-size': int({ arg: 'K', help: 'randomised pools: each training question sees K of the workers, shuffled (default: all, in order)', check: atLeast(1) }),
  mu: int({ arg: 'N', help: "updates on each step's batch, TRL's num_iterations", default: TRAINING_DEFAULTS.mu, check: atLeast(1) }),
  lr: num({ arg: 'LR', help: 'peak learning rate, constant', default: 1e-4 }),
  beta: num({ arg: 'B', help: 'KL coefficient against the base without the adapter', default: TRAINING_DEFAULTS.beta }),
  epsilon: num({ arg: 'E', help: 'lower clipping range', default: TRAINING_DEFAULTS.epsilon }),
  'epsilon-high': num({ arg: 'E', help: 'upper clipping range (default: --epsilon)' }),
  'loss-type': choice(GRPO_LOSS_TYPES, { arg: 'T', help: GRPO_LOSS_TYPES.join(' | '), default: TRAINING_DEFAULTS.lossType }),
  'scale-rewards': choice(REWARD_SCALINGS, {
    arg: 'S',
    help: `${REWARD_SCALINGS.join(' | ')}; none suits cost-aware rewards`,
    default: TRAINING_DEFAULTS.scaleRewards,
  }),
  temperature: num({ arg: 'T', help: 'sampling temperature', default: TRAINING_DEFAULTS.temperature, check: positive }),
  'max-completion-tokens': int({ arg: 'N', help: 'longest plan', default: 256, check: atLeast(1) }),
  constrain: toggle({ help: 'sample only workflows that parse (the lists alone, no reasoning)' }),
  'max-subtask-chars': int({
    arg: 'N',
    help:
      `with --constrain: longest subtask text (default: the format's ${DEFAULT_MAX_SUBTASK_CHARS}); ` +
      "a small value keeps an untrained Conductor's plans short, and its training fast",
    check: atLeast(1),
  }),
  subtasks: choice(['free', 'fixed'], {
    arg: 'S',
    help:
      `free, or with --constrain fixed: every subtask is a fixed text ("${FIXED_SUBTASKS[0]}", then "${FIXED_SUBTASKS[1]}"), ` +
      'so the Conductor learns routing alone: which workers, how many steps, what each sees',
    default: 'free',
  }),
  prompt: choice(['ask', 'compact'], { arg: 'P', help: "ask (the Ask page's prompt) or compact (question and pool size only)", default: 'ask' }),
  'question-chars': int({
    arg: 'N',
    help: "with --prompt compact: the Conductor reads the question's first N characters (workers get all of it); caps a step's tokens where questions run long",
    check: atLeast(1),
  }),
  'max-steps': int({ arg: 'K', help: 'most steps per workflow', default: DEFAULT_MAX_STEPS, check: atLeast(1) }),
  'cost-weight': num({ arg: 'L', help: 'lambda: reward minus L x dollars of the workflow', default: TRAINING_DEFAULTS.costWeight }),
  budget: num({ arg: 'USD', help: 'dollars the run may spend on workers (held-out evaluation included); no step starts after', check: atLeast(0) }),
  concurrency: flag({
    arg: 'LIST',
    help:
      'worker calls in flight per provider, e.g. openai=4,anthropic=2 (default 8 per network API, 1 for engine and webllm, simulated and replay ' +
      "uncapped); all of a step's plans run at once",
    read: (value) => {
      try {
        return parseProviderConcurrency(value);
      } catch (e) {
        throw new CliError(`--concurrency: ${(e as BatonError).message}`, 2);
      }
    },
  }),
  'no-cache': toggle({
    help:
      'send every worker call, even one identical to another of the step (by default it is sent once and the answer shared: dollars paid drop, ' +
      "each plan's cost term still counts it, and workers sampling at temperature > 0 give identical calls one shared sample)",
  }),
  recursion: int({
    arg: 'N',
    help:
      "recursion rounds after the first (default 0): the Conductor sees its round's result and keeps it or writes a new workflow; " +
      "the first round's plan trains on (1-d) r0 + d r1",
    check: atLeast(0),
  }),
  'recursion-mix': num({
    arg: 'D',
    help: "d of that mix (default 0.25, the paper's)",
    check: (d) => (d >= 0 && d <= 1 ? undefined : `must be from 0 to 1, got ${d}`),
  }),
  'eval-every': int({ arg: 'E', help: 'held-out accuracy (one greedy plan per question) every E steps; 0: never', default: 0, check: atLeast(0) }),
  'checkpoint-every': int({ arg: 'N', help: 'steps between checkpoints', default: 10, check: atLeast(1) }),
  'micro-batch': int({ arg: 'M', help: 'sequences per forward/backward pass, never across two groups (default: --group)', check: atLeast(1) }),
  seed: int({ arg: 'S', help: 'seeds the adapter, question draws and sampling', default: 0 }),
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
  config: text({
    arg: 'FILE',
    help: 'these settings as a JSON object named as the flags ({"model": "DIR", "steps": 30, "constrain": true, ...}); flags given besides override it',
  }),
  resume: text({ arg: 'DIR', help: 'continue the run in DIR from its newest checkpoint' }),
};

export const HELP = {
  usage: `usage: baton train --model DIR --pool FILE|demo|experts --tasks FILE|experts --out DIR [--full] [options]
       baton train --config FILE [flags that override it]
       baton train --model DIR --from-episodes FILE --out DIR [options]
       baton train --resume DIR [--steps N]

GRPO on a LoRA adapter of the Conductor: each step samples --group workflows for each of --questions
questions, runs them on the pool, rewards them (0 malformed, 0.5 wrong, 1 right, minus --cost-weight x
dollars) and takes one AdamW step. A progress line per step goes to stderr; OUT/metrics.jsonl gets one
JSON line a step, OUT/episodes.jsonl every rollout, OUT/checkpoints/ a checkpoint every
--checkpoint-every steps (and at the end, and on Ctrl-C), OUT/adapter/ the final adapter (PEFT layout), or
with --full OUT/model/ the whole trained model (config, F32 model.safetensors, tokenizer files).
`,
  flags: FLAGS,
};

export type TrainFlags = FlagValues<typeof FLAGS>;

export function settingsFromFlags(values: TrainFlags, cwd: string): TrainSettings {
  const model = modelRefOf(values, cwd);
  const fromEpisodes = values['from-episodes'];
  if (fromEpisodes === undefined)
    for (const flag of ['pool', 'tasks'] as const) if (!values[flag]) throw new CliError(`--${flag} is required (see baton train --help)`, 2);
  if (values.pool) checkPoolFlag(values.pool, cwd);
  if (values.subtasks === 'fixed' && !values.constrain) throw new CliError('--subtasks fixed needs --constrain (the constraint writes the fixed texts)', 2);
  if (values['question-chars'] !== undefined && values.prompt !== 'compact')
    throw new CliError('--question-chars needs --prompt compact (it cuts the question that prompt holds)', 2);
  if (values['every-plan']) checkEveryPlan(values);
  if (values.full) checkFull(model, values.beta);
  const path = (p: string) => (isBuiltInPool(p) || isBuiltInTaskSet(p) ? p : resolve(cwd, p));
  const optional = <K extends string, T>(key: K, value: T | undefined) => (value === undefined ? {} : ({ [key]: value } as { [k in K]: T }));
  const { r, group, epsilon } = values;
  return {
    modelDir: model.modelDir,
    ...optional('loraDir', model.loraDir),
    ...(values.full ? { weights: 'f32' as const, full: true } : optional('weights', model.weights)),
    lora: { r, alpha: values.alpha ?? 2 * r, targets: values.targets },
    pool: path(values.pool ?? ''),
    ...optional(
      'replay',
      values.replay?.map((f) => resolve(cwd, f)),
    ),
    tasks: path(values.tasks ?? ''),
    ...optional('fromEpisodes', fromEpisodes === undefined ? undefined : resolve(cwd, fromEpisodes)),
    ...(values['held-out'] ? { heldOut: resolve(cwd, values['held-out']) } : {}),
    steps: values.steps ?? (fromEpisodes === undefined ? STEPS : 0),
    questions: values.questions,
    group,
    ...(values['every-plan'] ? { everyPlan: true } : {}),
    ...optional('poolSize', values['pool-size']),
    mu: values.mu,
    lr: values.lr,
    beta: values.beta,
    epsilon,
    epsilonHigh: values['epsilon-high'] ?? epsilon,
    lossType: values['loss-type'],
    scaleRewards: values['scale-rewards'],
    temperature: values.temperature,
    maxCompletionTokens: values['max-completion-tokens'],
    constrain: values.constrain,
    ...optional('maxSubtaskChars', values['max-subtask-chars']),
    ...(values.subtasks === 'fixed' ? { fixedSubtasks: true } : {}),
    prompt: values.prompt,
    ...optional('questionChars', values['question-chars']),
    maxSteps: values['max-steps'],
    costWeight: values['cost-weight'],
    ...optional('budgetUsd', values.budget),
    ...optional('concurrency', values.concurrency),
    responseCache: !values['no-cache'],
    ...optional('recursion', values.recursion),
    ...optional('recursionMix', values['recursion-mix']),
    evalEvery: values['eval-every'],
    checkpointEvery: values['checkpoint-every'],
    microBatch: values['micro-batch'] ?? group,
    seed: values.seed,
  };
}

/** Every plan is enumerable only for a routing Conductor: one step, a fixed subtask, written under the constraint. */
function checkEveryPlan(values: TrainFlags): void {
  if (values['from-episodes'] !== undefined)
    throw new CliError('--every-plan runs plans on the pool; --from-episodes trains on stored ones: give one or the other', 2);
  if (!values.constrain || values.subtasks !== 'fixed' || values['max-steps'] !== 1)
    throw new CliError('--every-plan needs --constrain --subtasks fixed --max-steps 1: a plan is then one worker, and a group every worker', 2);
  if (values.recursion) throw new CliError('--every-plan writes first-round plans only: leave out --recursion', 2);
}

/** Full fine-tuning updates f32 master weights in place and keeps no frozen copy for a KL reference. */
function checkFull(model: NodeModelRef, beta: number): void {
  if (model.loraDir) throw new CliError('--full trains every weight of --model; --lora starts a LoRA run: give one or the other', 2);
  if (model.weights && model.weights !== 'f32') {
    throw new CliError(
      `--full trains f32 master weights, but --weights is ${model.weights}: leave --weights out (f32 then) or train a LoRA adapter over the ${model.weights} base`,
      2,
    );
  }
  if (beta > 0) throw new CliError(`--full has no KL reference (it would need a frozen copy of every weight): --beta must be 0, got ${beta}`, 2);
}

/**
 * --config FILE: a JSON object of the same settings as flags ({"model": "tiny", "steps": 30, "constrain":
 * true, ...}), read as if its flags came first, so flags on the command line override it.
 */
export async function withConfigFile(argv: string[], io: CliIo): Promise<string[]> {
  const at = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  if (at < 0) return argv;
  const file = argv[at].includes('=') ? argv[at].slice('--config='.length) : argv[at + 1];
  if (!file) throw new CliError('--config needs a file', 2);
  const rest = [...argv.slice(0, at), ...argv.slice(at + (argv[at].includes('=') ? 1 : 2))];
  let config: unknown;
  try {
    config = JSON.parse(await readTextFlag(io, 'config', resolve(io.cwd, file)));
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`--config ${file}: not JSON (${(e as Error).message})`, 2);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new CliError(`--config ${file}: must be a JSON object of settings named as the flags`, 2);
  const flags = Object.entries(config).flatMap(([key, value]): string[] => {
    if (!(key in FLAGS) || key === 'config' || key === 'resume')
      throw new CliError(`--config ${file}: "${key}" is not a setting of baton train (see --help)`, 2);
    if (typeof value === 'boolean') return value ? [`--${key}`] : [];
    if (typeof value !== 'string' && typeof value !== 'number') throw new CliError(`--config ${file}: "${key}" must be a string, a number or a boolean`, 2);
    return [`--${key}`, String(value)];
  });
  return [...flags, ...rest];
}
