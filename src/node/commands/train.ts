/**
 * `baton train`: GRPO on a LoRA adapter of a Conductor, or on every weight (--full), with Baton's engine
 * on Dawn (core/rl's runGrpo over EnginePolicy and GpuTrainer): Q questions x G sampled workflows a
 * step, run on a worker pool, rewarded, one update. Writes OUT/config.json (the run's settings),
 * OUT/metrics.jsonl (one line a step), OUT/episodes.jsonl (every rollout), OUT/checkpoints/
 * (checkpoint-dir.ts) and, at the end, OUT/adapter/ in PEFT layout or, with --full, OUT/model/ (a
 * whole model directory, model-dir.ts). Ctrl-C checkpoints the last finished step and stops; `--resume OUT`
 * continues from the newest checkpoint as if never stopped (settings from OUT/config.json; --steps
 * may extend the run).
 */
import { setMaxListeners } from 'node:events';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { episodeToLine, type Episode } from '../../core/episodes/index.ts';
import { seededRandom } from '../../core/random.ts';
import { PAPER_REWARD } from '../../core/reward/index.ts';
import {
  isWeightsState,
  runGrpo,
  TRAINED_FORMAT_FILE,
  trainablePolicy,
  trainedFormatJson,
  trainedPrompt,
  trainedWorkflowFormat,
  type GrpoCheckpoint,
  type GrpoConfig,
  type GrpoLossType,
  type GrpoStepMetrics,
  type OfflineStepMetrics,
  type RewardScaling,
  type TrainedFormat,
} from '../../core/rl/index.ts';
import type { Task } from '../../core/task.ts';
import { DEFAULT_MAX_STEPS } from '../../core/workflow/index.ts';
import { DEFAULT_MAX_SUBTASK_CHARS, FIXED_SUBTASKS, workflowConstraintFor } from '../../core/workflow/constrain/index.ts';
import { EnginePolicy } from '../../engine/index.ts';
import { filesFromDir } from '../../engine/model/files-node.ts';
import { ADAPTER_CONFIG, ADAPTER_WEIGHTS, initLoraAdapter, readPeftAdapter } from '../../engine/model/index.ts';
import { GpuTrainer } from '../../engine/train/index.ts';
import { checkpointDir, readLatestCheckpoint } from '../checkpoint-dir.ts';
import { ENGINE_FLAGS, ENGINE_FLAGS_HELP, parseEngineFlags } from '../engine-flags.ts';
import { CliError, intFlag, numberFlag, parseFlags, readTextFlag, type CliIo } from '../io.ts';
import { parseTargets } from '../lora-targets.ts';
import { writeModelDir } from '../model-dir.ts';
import { outputDir } from '../out-dir.ts';
import { isBuiltInPool, readPoolFlag } from '../pool-file.ts';
import { readReplayFlags } from '../replay-data.ts';
import { stepOfEpisode, truncateLog } from '../run-log.ts';
import { longestGroupSequence, readEpisodeGroups, trainFromEpisodes } from '../train-from-episodes.ts';
import { isBuiltInTaskSet, parseTaskFile, readBuiltInTaskSet } from '../task-file.ts';
import { createNodeCodeRunner } from '../node-code-runner.ts';
import { openNodeModel } from '../webgpu.ts';
import { buildPool } from './run.ts';
import { parseProviderConcurrency, type ProviderConcurrency } from '../../core/orchestra/index.ts';
import type { BatonError } from '../../core/errors/index.ts';
import { NodeLocalModels } from '../local-models.ts';

const LOSS_TYPES: readonly GrpoLossType[] = ['bnpo', 'grpo', 'dr_grpo'];
const SCALINGS: readonly RewardScaling[] = ['group', 'batch', 'none'];

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
  --mu N                 updates on each step's batch (TRL's num_iterations; default 1)
  --lr LR                peak learning rate, constant (default 1e-4)
  --beta B               KL coefficient against the base without the adapter (default 0)
  --epsilon E            lower clipping range (default 0.2); --epsilon-high E the upper one (default: --epsilon)
  --loss-type T          bnpo | grpo | dr_grpo (default bnpo)
  --scale-rewards S      group | batch | none (default group; none suits cost-aware rewards)
  --temperature T        sampling temperature (default 1)
  --max-completion-tokens N   longest plan (default 256)
  --constrain            sample only workflows that parse (the lists alone, no reasoning)
  --max-subtask-chars N  with --constrain: longest subtask text (default: the format's ${DEFAULT_MAX_SUBTASK_CHARS}); a small
                         value keeps an untrained Conductor's plans short, and its training fast
  --subtasks fixed       with --constrain: every subtask is a fixed text ("${FIXED_SUBTASKS[0]}", then "${FIXED_SUBTASKS[1]}"),
                         so the Conductor learns routing alone: which workers, how many steps, what each sees
  --prompt P             ask (the Ask page's prompt, default) or compact (question and pool size only)
  --max-steps K          most steps per workflow (default ${DEFAULT_MAX_STEPS})
  --cost-weight L        lambda: reward minus L x dollars of the workflow (default 0)
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

/** Everything a run depends on, kept in OUT/config.json so that --resume runs the same run. */
interface TrainSettings {
  modelDir: string;
  loraDir?: string;
  weights?: 'f32' | 'f16' | 'int4';
  /** Every weight trains (f32), not a LoRA adapter. */
  full?: boolean;
  /** Offline GRPO on this episodes file's groups (train-from-episodes.ts); steps 0: one pass over them. */
  fromEpisodes?: string;
  lora: { r: number; alpha: number; targets: string[] };
  pool: string;
  /** RouteLLM CSVs replay workers read (default: the records in data/routellm). */
  replay?: string[];
  tasks: string;
  heldOut?: string;
  steps: number;
  questions: number;
  group: number;
  poolSize?: number;
  mu: number;
  lr: number;
  beta: number;
  epsilon: number;
  epsilonHigh: number;
  lossType: GrpoLossType;
  scaleRewards: RewardScaling;
  temperature: number;
  maxCompletionTokens: number;
  constrain: boolean;
  maxSubtaskChars?: number;
  fixedSubtasks?: boolean;
  prompt: 'ask' | 'compact';
  maxSteps: number;
  costWeight: number;
  budgetUsd?: number;
  /** Calls in flight per provider, over DEFAULT_PROVIDER_CONCURRENCY. */
  concurrency?: ProviderConcurrency;
  /** false: every worker call is sent (absent, as in runs made before the cache: on). */
  responseCache?: boolean;
  recursion?: number;
  recursionMix?: number;
  evalEvery: number;
  checkpointEvery: number;
  microBatch: number;
  seed: number;
}

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
  const lossType = (values['loss-type'] ?? 'bnpo') as GrpoLossType;
  if (!LOSS_TYPES.includes(lossType)) throw new CliError(`--loss-type must be one of ${LOSS_TYPES.join(', ')}, got "${lossType}"`, 2);
  const scaleRewards = (values['scale-rewards'] ?? 'group') as RewardScaling;
  if (!SCALINGS.includes(scaleRewards)) throw new CliError(`--scale-rewards must be one of ${SCALINGS.join(', ')}, got "${scaleRewards}"`, 2);
  const subtasks = values.subtasks ?? 'free';
  if (subtasks !== 'free' && subtasks !== 'fixed') throw new CliError(`--subtasks must be free or fixed, got "${subtasks}"`, 2);
  if (subtasks === 'fixed' && !values.constrain) throw new CliError('--subtasks fixed needs --constrain (the constraint writes the fixed texts)', 2);
  const prompt = values.prompt ?? 'ask';
  if (prompt !== 'ask' && prompt !== 'compact') throw new CliError(`--prompt must be ask or compact, got "${prompt}"`, 2);
  const path = (p: string) => (isBuiltInPool(p) || isBuiltInTaskSet(p) ? p : resolve(io.cwd, p));
  const r = atLeast('r', intFlag('r', values.r, 8)!, 1);
  const group = atLeast('group', intFlag('group', values.group, 8)!, 2);
  const epsilon = numberFlag('epsilon', values.epsilon, 0.2)!;
  const temperature = numberFlag('temperature', values.temperature, 1)!;
  if (!(temperature > 0)) throw new CliError(`--temperature must be positive, got ${temperature}`, 2);
  const beta = numberFlag('beta', values.beta, 0)!;
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
    mu: atLeast('mu', intFlag('mu', values.mu, 1)!, 1),
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
    costWeight: numberFlag('cost-weight', values['cost-weight'], 0)!,
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

/** How the run prompts and samples its Conductor, kept beside what it trains (conductor.json). */
function trainedFormatOf(s: TrainSettings): TrainedFormat {
  return {
    prompt: s.prompt,
    constrain: s.constrain,
    maxSteps: s.maxSteps,
    ...(s.fixedSubtasks ? { fixedSubtasks: true } : {}),
    ...(s.maxSubtaskChars === undefined ? {} : { maxSubtaskChars: s.maxSubtaskChars }),
  };
}

/** Full fine-tuning updates f32 master weights in place and keeps no frozen copy for a KL reference. */
function checkFull(choice: ReturnType<typeof parseEngineFlags>, beta: number): void {
  if (choice.loraDir) throw new CliError('--full trains every weight of --model; --lora starts a LoRA run: give one or the other', 2);
  if (choice.weights && choice.weights !== 'f32') {
    throw new CliError(`--full trains f32 master weights, but --weights is ${choice.weights}: leave --weights out (f32 then) or train a LoRA adapter over the ${choice.weights} base`, 2);
  }
  if (beta > 0) throw new CliError(`--full has no KL reference (it would need a frozen copy of every weight): --beta must be 0, got ${beta}`, 2);
}

async function taskSets(s: TrainSettings, io: CliIo): Promise<{ train: Task[]; heldOut: Task[] }> {
  const file = async (flag: string, path: string) => parseTaskFile(await readTextFlag(io, flag, path), path);
  const sets = isBuiltInTaskSet(s.tasks) ? await readBuiltInTaskSet(s.tasks, s.seed) : { train: await file('tasks', s.tasks), heldOut: [] };
  return s.heldOut ? { train: sets.train, heldOut: await file('held-out', s.heldOut) } : sets;
}

const clock = (ms: number) => {
  const total = Math.round(ms / 1000);
  return total >= 60 ? `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s` : `${total}s`;
};

function progressLine(m: GrpoStepMetrics, s: TrainSettings, msPerStep: number): string {
  const parts = [
    `step ${m.step}/${s.steps}`,
    `reward ${m.rewardMean.toFixed(3)} ± ${m.rewardStd.toFixed(3)}`,
    `accuracy ${m.accuracy.toFixed(2)}`,
    `format ${m.formatRate.toFixed(2)}`,
    ...(m.heldOutAccuracy === undefined ? [] : [`held-out ${m.heldOutAccuracy.toFixed(2)}`]),
    ...(m.skipped ? [`no update: ${m.skipped}`] : []),
    `${(m.timeMs / 1000).toFixed(1)} s`,
    `~${clock(msPerStep * (s.steps - m.step))} left`,
  ];
  return `${parts.join('  ')}\n`;
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
  const resume = values.resume ? await readLatestCheckpoint<unknown>(join(out, 'checkpoints')) : undefined;
  const offline = settings.fromEpisodes !== undefined;
  // Local workers load apart from the Conductor being trained, whose weights change as it learns.
  const models = new NodeLocalModels(io.cwd);
  const poolSpecs = offline ? [] : await readPoolFlag(io, settings.pool);
  const pool = offline ? [] : await buildPool(poolSpecs, io.env, await readReplayFlags(io, settings.replay, poolSpecs), settings.seed, { local: models });
  const { train, heldOut } = offline ? { train: [], heldOut: [] } : await taskSets(settings, io);

  // Code tasks are graded by running the answers in Pyodide worker threads.
  const codeRunner = [...train, ...heldOut].some((t) => t.kind === 'code') ? createNodeCodeRunner() : undefined;
  const loaded = await openNodeModel({ modelDir: settings.modelDir, ...(settings.weights ? { weights: settings.weights } : {}), withTokenizer: true });
  const controller = new AbortController();
  // Every rollout of a step (questions x group x workflow steps) listens to it at once: not a leak.
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const { model, tokenizer } = loaded;
    const config = model.config;
    const lora = settings.full
      ? undefined
      : settings.loraDir
        ? await readPeftAdapter(filesFromDir(settings.loraDir), config)
        : initLoraAdapter(config, { r: settings.lora.r, alpha: settings.lora.alpha, targetModules: settings.lora.targets, dropout: 0, baseModel: settings.modelDir }, seededRandom(settings.seed));
    const sampler = new EnginePolicy(model, tokenizer!);
    const trained = trainedFormatOf(settings);
    const prompt = trainedPrompt(trained);
    const format = { maxSteps: settings.maxSteps, access: 'binary' as const };
    const stored = offline ? await readEpisodeGroups(io, settings.fromEpisodes!, sampler, tokenizer!) : undefined;
    // Memory preflight: the longest sequence any question (or stored group) can produce, checked before step 1.
    const specs = pool.map((w) => w.spec);
    const longest = stored
      ? longestGroupSequence(stored.groups)
      : Math.max(...[...train, ...heldOut].map((t) => sampler.promptIds(prompt(t, specs, format), false).length + 8)) + settings.maxCompletionTokens;
    const trainer = await GpuTrainer.create(model, {
      ...(lora ? { wrt: 'lora' as const, lora } : { wrt: 'weights' as const }),
      optimizer: { lr: settings.lr },
      // Each micro-batch is one group's (grpoStep): its prompt's rows are counted once, up to the completions' length.
      limits: { microBatchSequences: settings.microBatch, maxSequenceLength: longest, ...(stored ? {} : { maxCompletionLength: settings.maxCompletionTokens }) },
    });
    const update = {
      grpo: { beta: settings.beta, epsilonLow: settings.epsilon, epsilonHigh: settings.epsilonHigh, lossType: settings.lossType, maxCompletionLength: settings.maxCompletionTokens },
      scaleRewards: settings.scaleRewards,
      microBatchSize: settings.microBatch,
    };
    await mkdir(join(out, 'checkpoints'), { recursive: true });
    const trainOnPool = async () => {
      const grpo: GrpoConfig = {
        steps: settings.steps,
        questionsPerStep: settings.questions,
        groupSize: settings.group,
        iterations: settings.mu,
        ...(settings.poolSize === undefined ? {} : { poolSize: settings.poolSize }),
        maxCompletionTokens: settings.maxCompletionTokens,
        temperature: settings.temperature,
        train: update,
        seed: settings.seed,
        maxSteps: settings.maxSteps,
        prompt,
        rewardScheme: { ...PAPER_REWARD, costWeight: settings.costWeight },
        evalEvery: settings.evalEvery,
        ...(settings.budgetUsd === undefined ? {} : { budgetUsd: settings.budgetUsd }),
        checkpointEvery: settings.checkpointEvery,
        conductorModel: settings.modelDir,
        ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
        ...(settings.responseCache === false ? { responseCache: false } : {}),
        ...(settings.recursion ? { recursionDepth: settings.recursion } : {}),
        ...(settings.recursionMix === undefined ? {} : { recursionMix: settings.recursionMix }),
      };
      const metricsFile = join(out, 'metrics.jsonl');
      const episodesFile = join(out, 'episodes.jsonl');
      // The logs restart from the checkpoint: steps after it are run again, identically.
      await writeFile(metricsFile, (resume?.metrics ?? []).map((m) => `${JSON.stringify(m)}\n`).join(''));
      if (resume) await truncateLog(episodesFile, resume.step, (e) => stepOfEpisode(e as Episode));
      const started = performance.now();
      const firstStep = resume?.step ?? 0;
      const lines: Promise<void>[] = [];
      const online = await runGrpo(grpo, {
        policy: trainablePolicy(sampler, trainer),
        pool,
        tasks: train,
        heldOut,
        ...(settings.constrain
          ? {
              constraint: (workers: number, recursion?: boolean) => workflowConstraintFor(tokenizer!, config.vocabSize, trainedWorkflowFormat(trained, workers, recursion)),
            }
          : {}),
        ...(resume ? { resume: resume as GrpoCheckpoint } : {}),
        ...(codeRunner ? { codeRunner } : {}),
        checkpoints: checkpointDir(join(out, 'checkpoints')),
        signal: controller.signal,
        onEpisodes: (episodes) => void lines.push(appendFile(episodesFile, episodes.map((e) => `${episodeToLine(e)}\n`).join(''))),
        onStep: (m) => {
          lines.push(appendFile(metricsFile, `${JSON.stringify(m)}\n`));
          io.stderr(progressLine(m, settings, (performance.now() - started) / (m.step - firstStep)));
        },
      });
      await Promise.all(lines);
      return online;
    };
    const result = stored
      ? {
          overBudget: false,
          ...(await trainFromEpisodes(
            { ...settings, steps: settings.steps || Math.ceil(stored.groups.length / settings.questions), train: { ...update, temperature: settings.temperature } },
            stored,
            trainablePolicy(sampler, trainer),
            { out, io, signal: controller.signal, ...(resume ? { resume: resume as GrpoCheckpoint<OfflineStepMetrics> } : {}) },
          )),
        }
      : await trainOnPool();
    const state = await trainer.exportState();
    trainer.destroy();
    if (!result.stopped) {
      const dir = join(out, isWeightsState(state) ? 'model' : 'adapter');
      if (isWeightsState(state)) {
        await writeModelDir(dir, settings.modelDir, state.weights);
      } else {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, ADAPTER_CONFIG), state.adapterConfig);
        await writeFile(join(dir, ADAPTER_WEIGHTS), state.adapter);
      }
      await writeFile(join(dir, TRAINED_FORMAT_FILE), trainedFormatJson(trained));
    }
    if (result.overBudget) io.stderr(`stopped after step ${result.step}: the --budget of $${settings.budgetUsd} is spent\n`);
    const last = result.metrics.at(-1);
    io.stdout(`${JSON.stringify({ out, step: result.step, stopped: result.stopped, overBudget: result.overBudget, ...(last ? { last } : {}) })}\n`);
    return result.stopped ? 130 : 0;
  } finally {
    process.off('SIGINT', stop);
    loaded.close();
    await models.close();
    await codeRunner?.close();
  }
}
