/**
 * `baton train`: GRPO on a LoRA adapter of a Conductor, or on every weight (--full), with Baton's engine
 * on Dawn: Q questions x G sampled workflows a step, run on a worker pool, rewarded, one update. This
 * file reads the settings (flags, --config, or a resumed run's config.json); train-run.ts runs them
 * (core/rl's training session, the Train page's too). Writes OUT/config.json (the run's settings),
 * OUT/metrics.jsonl (one line a step), OUT/episodes.jsonl (every rollout), OUT/checkpoints/
 * (checkpoint-dir.ts) and, at the end, OUT/adapter/ in PEFT layout or, with --full, OUT/model/ (a
 * whole model directory, model-dir.ts). Ctrl-C checkpoints the last finished step and stops; `--resume OUT`
 * continues from the newest checkpoint as if never stopped (settings from OUT/config.json; --steps
 * may extend the run).
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BatonError } from '../../core/errors/index.ts';
import { parseProviderConcurrency, type ProviderConcurrency } from '../../core/orchestra/index.ts';
import { GRPO_LOSS_TYPES, REWARD_SCALINGS, TRAINING_DEFAULTS, type GrpoLossType, type RewardScaling } from '../../core/rl/index.ts';
import { DEFAULT_MAX_STEPS } from '../../core/workflow/index.ts';
import { DEFAULT_MAX_SUBTASK_CHARS, FIXED_SUBTASKS } from '../../core/workflow/constrain/index.ts';
import { ENGINE_FLAGS, ENGINE_FLAGS_HELP, parseEngineFlags } from '../engine-flags.ts';
import { CliError, intFlag, numberFlag, parseFlags, readTextFlag, type CliIo } from '../io.ts';
import { parseTargets } from '../lora-targets.ts';
import { outputDir } from '../out-dir.ts';
import { isBuiltInPool } from '../pool-file.ts';
import { isBuiltInTaskSet } from '../task-file.ts';
import { runTrain, type TrainSettings } from './train-run.ts';

const USAGE = `usage: baton train --model DIR --pool FILE|demo|experts --tasks FILE|experts --out DIR [--full] [options]
       baton train --config FILE [flags that override it]
       baton train --model DIR --from-episodes FILE --out DIR [options]
       baton train --resume DIR [--steps N]

GRPO on a LoRA adapter of the Conductor: each step samples --group workflows for each of --questions
questions, runs them on the pool, rewards them (0 malformed, 0.5 wrong, 1 right, minus --cost-weight x
dollars) and takes one AdamW step. A progress line per step goes to stderr; OUT/metrics.jsonl gets one
JSON line a step, OUT/episodes.jsonl every rollout, OUT/checkpoints/ a checkpoint every
--checkpoint-every steps (and at the end, and on Ctrl-C), OUT/adapter/ the final adapter (PEFT layout), or
with --full OUT/model/ the whole trained model (config, F32 model.safetensors, tokenizer files).

options:
${ENGINE_FLAGS_HELP}
                         (--lora: the adapter to start from; otherwise a new one of --r, --alpha, --targets)
  --r R                  new adapter's rank (default 8)
  --alpha A              new adapter's alpha (default 2 x r)
  --targets LIST         new adapter's modules: q_proj,...,down_proj or all (default q_proj,v_proj)
  --full                 train every weight instead of an adapter (f32 master weights: --weights f32, the
                         default then; beta 0, as there is no frozen reference); refused where it does not fit
  --pool P               a pool file, demo (four simulated workers), experts (issue 11's experts pool) or
                         routellm-mmlu (GPT-4 and Mixtral replaying their recorded MMLU answers, at list prices)
  --replay FILE          a RouteLLM responses CSV for the pool's replay workers (repeatable; default: data/routellm)
  --tasks T              a JSONL of {question, answer, kind, choices?} (kind code: answer is the tests' JSON, as
                         baton grade --kind code takes it; answers run in a Python sandbox), experts (MMLU and GSM8K from data/),
                         routellm-mmlu (the MMLU questions of RouteLLM's records, in MMLU's standard prompt) or
                         experts-short (generated sums and "which is largest" questions: short prompts, fast
                         training); the built-in sets are split train/held-out by --seed
  --held-out FILE        held-out tasks (JSONL, as --tasks); experts brings its own
  --from-episodes FILE   offline GRPO on stored groups instead of sampling: an episodes JSONL (the Episodes page's
                         export, or a run's episodes.jsonl); episodes sharing a group id form a group, their stored
                         rewards its advantages; --questions groups a step, in file order; no pool or tasks needed
  --steps N              optimiser steps (default 20; with --from-episodes one pass over the groups)
  --questions Q          questions per step (default 4)
  --group G              workflows sampled per question (default 8)
  --pool-size K          randomised pools: each training question sees K of the workers, shuffled (default: all, in order)
  --mu N                 updates on each step's batch (TRL's num_iterations; default ${TRAINING_DEFAULTS.mu})
  --lr LR                peak learning rate, constant (default 1e-4)
  --beta B               KL coefficient against the base without the adapter (default ${TRAINING_DEFAULTS.beta})
  --epsilon E            lower clipping range (default ${TRAINING_DEFAULTS.epsilon}); --epsilon-high E the upper one (default: --epsilon)
  --loss-type T          ${GRPO_LOSS_TYPES.join(' | ')} (default ${TRAINING_DEFAULTS.lossType})
  --scale-rewards S      ${REWARD_SCALINGS.join(' | ')} (default ${TRAINING_DEFAULTS.scaleRewards}; none suits cost-aware rewards)
  --temperature T        sampling temperature (default ${TRAINING_DEFAULTS.temperature})
  --max-completion-tokens N   longest plan (default 256)
  --constrain            sample only workflows that parse (the lists alone, no reasoning)
  --max-subtask-chars N  with --constrain: longest subtask text (default: the format's ${DEFAULT_MAX_SUBTASK_CHARS}); a small
                         value keeps an untrained Conductor's plans short, and its training fast
  --subtasks fixed       with --constrain: every subtask is a fixed text ("${FIXED_SUBTASKS[0]}", then "${FIXED_SUBTASKS[1]}"),
                         so the Conductor learns routing alone: which workers, how many steps, what each sees
  --prompt P             ask (the Ask page's prompt, default) or compact (question and pool size only)
  --max-steps K          most steps per workflow (default ${DEFAULT_MAX_STEPS})
  --cost-weight L        lambda: reward minus L x dollars of the workflow (default ${TRAINING_DEFAULTS.costWeight})
  --budget USD           dollars the run may spend on workers (held-out evaluation included); no step starts after
  --concurrency LIST     worker calls in flight per provider, e.g. openai=4,anthropic=2 (default 8 per network
                         API, 1 for engine and webllm, simulated and replay uncapped); all of a step's plans run at once
  --no-cache             send every worker call, even one identical to another of the step (by default it is sent
                         once and the answer shared: dollars paid drop, each plan's cost term still counts it, and
                         workers sampling at temperature > 0 give identical calls one shared sample)
  --recursion N          recursion rounds after the first (default 0): the Conductor sees its round's result and keeps
                         it or writes a new workflow; the first round's plan trains on (1 - d) r0 + d r1
  --recursion-mix D      d of that mix (default 0.25, the paper's)
  --eval-every E         held-out accuracy (one greedy plan per question) every E steps (default 0: never)
  --checkpoint-every N   default 10
  --micro-batch M        sequences per forward/backward pass, never across two groups (default: --group)
  --seed S               seeds the adapter, question draws and sampling (default 0)
  --out DIR              a new or empty directory
  --config FILE          these settings as a JSON object named as the flags ({"model": "DIR", "steps": 30,
                         "constrain": true, ...}); flags given besides override it
  --resume DIR           continue the run in DIR from its newest checkpoint
`;

const FLAGS = {
  ...ENGINE_FLAGS,
  r: { type: 'string' },
  alpha: { type: 'string' },
  targets: { type: 'string' },
  full: { type: 'boolean' },
  'from-episodes': { type: 'string' },
  pool: { type: 'string' },
  replay: { type: 'string', multiple: true },
  tasks: { type: 'string' },
  'held-out': { type: 'string' },
  steps: { type: 'string' },
  questions: { type: 'string' },
  group: { type: 'string' },
  'pool-size': { type: 'string' },
  mu: { type: 'string' },
  lr: { type: 'string' },
  beta: { type: 'string' },
  epsilon: { type: 'string' },
  'epsilon-high': { type: 'string' },
  'loss-type': { type: 'string' },
  'scale-rewards': { type: 'string' },
  temperature: { type: 'string' },
  'max-completion-tokens': { type: 'string' },
  constrain: { type: 'boolean' },
  'max-subtask-chars': { type: 'string' },
  subtasks: { type: 'string' },
  prompt: { type: 'string' },
  'max-steps': { type: 'string' },
  'cost-weight': { type: 'string' },
  budget: { type: 'string' },
  concurrency: { type: 'string' },
  'no-cache': { type: 'boolean' },
  recursion: { type: 'string' },
  'recursion-mix': { type: 'string' },
  'eval-every': { type: 'string' },
  'checkpoint-every': { type: 'string' },
  'micro-batch': { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  resume: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseFlags<typeof FLAGS>>['values'];

const atLeast = (flag: string, value: number, min: number) => {
  if (!(value >= min)) throw new CliError(`--${flag} must be at least ${min}, got ${value}`, 2);
  return value;
};

const unitInterval = (flag: string, value: number) => {
  if (!(value >= 0 && value <= 1)) throw new CliError(`--${flag} must be from 0 to 1, got ${value}`, 2);
  return value;
};

function settingsFromFlags(values: Values, io: CliIo): TrainSettings {
  const choice = parseEngineFlags(values, io.cwd);
  const fromEpisodes = values['from-episodes'];
  if (fromEpisodes === undefined) for (const flag of ['pool', 'tasks'] as const) if (!values[flag]) throw new CliError(`--${flag} is required (see baton train --help)`, 2);
  const lossType = (values['loss-type'] ?? TRAINING_DEFAULTS.lossType) as GrpoLossType;
  if (!GRPO_LOSS_TYPES.includes(lossType)) throw new CliError(`--loss-type must be one of ${GRPO_LOSS_TYPES.join(', ')}, got "${lossType}"`, 2);
  const scaleRewards = (values['scale-rewards'] ?? TRAINING_DEFAULTS.scaleRewards) as RewardScaling;
  if (!REWARD_SCALINGS.includes(scaleRewards)) throw new CliError(`--scale-rewards must be one of ${REWARD_SCALINGS.join(', ')}, got "${scaleRewards}"`, 2);
  const subtasks = values.subtasks ?? 'free';
  if (subtasks !== 'free' && subtasks !== 'fixed') throw new CliError(`--subtasks must be free or fixed, got "${subtasks}"`, 2);
  if (subtasks === 'fixed' && !values.constrain) throw new CliError('--subtasks fixed needs --constrain (the constraint writes the fixed texts)', 2);
  const prompt = values.prompt ?? 'ask';
  if (prompt !== 'ask' && prompt !== 'compact') throw new CliError(`--prompt must be ask or compact, got "${prompt}"`, 2);
  const path = (p: string) => (isBuiltInPool(p) || isBuiltInTaskSet(p) ? p : resolve(io.cwd, p));
  const r = atLeast('r', intFlag('r', values.r, 8)!, 1);
  const group = atLeast('group', intFlag('group', values.group, 8)!, 2);
  const epsilon = numberFlag('epsilon', values.epsilon, TRAINING_DEFAULTS.epsilon)!;
  const temperature = numberFlag('temperature', values.temperature, TRAINING_DEFAULTS.temperature)!;
  if (!(temperature > 0)) throw new CliError(`--temperature must be positive, got ${temperature}`, 2);
  const beta = numberFlag('beta', values.beta, TRAINING_DEFAULTS.beta)!;
  const full = values.full ?? false;
  if (full) checkFull(choice, beta);
  return {
    modelDir: choice.modelDir,
    ...(choice.loraDir ? { loraDir: choice.loraDir } : {}),
    ...(full ? { weights: 'f32' as const, full } : choice.weights ? { weights: choice.weights } : {}),
    lora: { r, alpha: numberFlag('alpha', values.alpha, 2 * r)!, targets: parseTargets(values.targets) },
    pool: path(values.pool ?? ''),
    ...(values.replay ? { replay: values.replay.map((f) => resolve(io.cwd, f)) } : {}),
    tasks: path(values.tasks ?? ''),
    ...(fromEpisodes === undefined ? {} : { fromEpisodes: resolve(io.cwd, fromEpisodes) }),
    ...(values['held-out'] ? { heldOut: resolve(io.cwd, values['held-out']) } : {}),
    steps: fromEpisodes !== undefined && values.steps === undefined ? 0 : atLeast('steps', intFlag('steps', values.steps, 20)!, 1),
    questions: atLeast('questions', intFlag('questions', values.questions, 4)!, 1),
    group,
    ...(values['pool-size'] === undefined ? {} : { poolSize: atLeast('pool-size', intFlag('pool-size', values['pool-size'])!, 1) }),
    mu: atLeast('mu', intFlag('mu', values.mu, TRAINING_DEFAULTS.mu)!, 1),
    lr: numberFlag('lr', values.lr, 1e-4)!,
    beta,
    epsilon,
    epsilonHigh: numberFlag('epsilon-high', values['epsilon-high'], epsilon)!,
    lossType,
    scaleRewards,
    temperature,
    maxCompletionTokens: atLeast('max-completion-tokens', intFlag('max-completion-tokens', values['max-completion-tokens'], 256)!, 1),
    constrain: values.constrain ?? false,
    ...(values['max-subtask-chars'] === undefined ? {} : { maxSubtaskChars: atLeast('max-subtask-chars', intFlag('max-subtask-chars', values['max-subtask-chars'])!, 1) }),
    ...(subtasks === 'fixed' ? { fixedSubtasks: true } : {}),
    prompt,
    maxSteps: atLeast('max-steps', intFlag('max-steps', values['max-steps'], DEFAULT_MAX_STEPS)!, 1),
    costWeight: numberFlag('cost-weight', values['cost-weight'], TRAINING_DEFAULTS.costWeight)!,
    ...(values.budget === undefined ? {} : { budgetUsd: atLeast('budget', numberFlag('budget', values.budget)!, 0) }),
    ...(values.concurrency === undefined ? {} : { concurrency: concurrencyFlag(values.concurrency) }),
    responseCache: !values['no-cache'],
    ...(values.recursion === undefined ? {} : { recursion: atLeast('recursion', intFlag('recursion', values.recursion)!, 0) }),
    ...(values['recursion-mix'] === undefined ? {} : { recursionMix: unitInterval('recursion-mix', numberFlag('recursion-mix', values['recursion-mix'])!) }),
    evalEvery: atLeast('eval-every', intFlag('eval-every', values['eval-every'], 0)!, 0),
    checkpointEvery: atLeast('checkpoint-every', intFlag('checkpoint-every', values['checkpoint-every'], 10)!, 1),
    microBatch: atLeast('micro-batch', intFlag('micro-batch', values['micro-batch'], group)!, 1),
    seed: intFlag('seed', values.seed, 0)!,
  };
}

function concurrencyFlag(value: string): ProviderConcurrency {
  try {
    return parseProviderConcurrency(value);
  } catch (e) {
    throw new CliError(`--concurrency: ${(e as BatonError).message}`, 2);
  }
}

/** Full fine-tuning updates f32 master weights in place and keeps no frozen copy for a KL reference. */
function checkFull(choice: ReturnType<typeof parseEngineFlags>, beta: number): void {
  if (choice.loraDir) throw new CliError('--full trains every weight of --model; --lora starts a LoRA run: give one or the other', 2);
  if (choice.weights && choice.weights !== 'f32') {
    throw new CliError(`--full trains f32 master weights, but --weights is ${choice.weights}: leave --weights out (f32 then) or train a LoRA adapter over the ${choice.weights} base`, 2);
  }
  if (beta > 0) throw new CliError(`--full has no KL reference (it would need a frozen copy of every weight): --beta must be 0, got ${beta}`, 2);
}

/**
 * --config FILE: a JSON object of the same settings as flags ({"model": "tiny", "steps": 30, "constrain":
 * true, ...}), read as if its flags came first, so flags on the command line override it.
 */
async function withConfigFile(argv: string[], io: CliIo): Promise<string[]> {
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
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new CliError(`--config ${file}: must be a JSON object of settings named as the flags`, 2);
  const flags = Object.entries(config).flatMap(([key, value]): string[] => {
    if (!(key in FLAGS) || key === 'config' || key === 'resume' || key === 'help') throw new CliError(`--config ${file}: "${key}" is not a setting of baton train (see --help)`, 2);
    if (typeof value === 'boolean') return value ? [`--${key}`] : [];
    if (typeof value !== 'string' && typeof value !== 'number') throw new CliError(`--config ${file}: "${key}" must be a string, a number or a boolean`, 2);
    return [`--${key}`, String(value)];
  });
  return [...flags, ...rest];
}

export async function trainCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(await withConfigFile(argv, io), FLAGS);
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  let out: string;
  let settings: TrainSettings;
  if (values.resume) {
    out = resolve(io.cwd, values.resume);
    settings = JSON.parse(await readTextFlag(io, 'resume', join(out, 'config.json'))) as TrainSettings;
    if (values.steps) settings.steps = atLeast('steps', intFlag('steps', values.steps)!, 1);
  } else {
    settings = settingsFromFlags(values, io);
    out = await outputDir(io, values.out, [settings.modelDir]);
    await writeFile(join(out, 'config.json'), `${JSON.stringify(settings, null, 2)}\n`);
  }
  return runTrain(settings, out, io, values.resume !== undefined);
}
