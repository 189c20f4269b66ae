/**
 * `baton run`: one question end to end over a worker pool. Prints the workflow, each step and the final
 * answer (or, with --json, the whole episode). The episode is kept in the episode directory, the same
 * JSONL lines the browser exports; --episode-out also appends it to a file of the caller's choosing.
 */
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  episodeToLine,
  outcomeText,
  simulatedPriceNote,
  spendingOf,
  rewardNote,
  stepOutcome,
  unknownCostNote,
  type Episode,
  type StepRecord,
} from '../../core/episodes/index.ts';
import { runEpisode, type RunOptions } from '../../core/orchestra/index.ts';
import { parseCodeGold } from '../../core/reward/index.ts';
import { loadProviders, resolveApiKey, type LocalModels, type RetryPolicy, type WorkerModel, type WorkerSpec } from '../../core/providers/index.ts';
import type { ReplayTable } from '../../core/providers/replay/index.ts';
import { kindOfAnswer, TASK_KINDS, type Task, type TaskKind } from '../../core/task.ts';
import { DEFAULT_MAX_STEPS, renderWorkflow } from '../../core/workflow/index.ts';
import { CONDUCTOR_CHOICE_HELP, runConductor } from '../conductors.ts';
import { CliError, intFlag, numberFlag, parseFlags, readTextFlag, type CliIo } from '../io.ts';
import { openEpisodesDir } from '../episode-dir.ts';
import { createNodeCodeRunner } from '../node-code-runner.ts';
import { NodeLocalModels } from '../local-models.ts';
import { readPoolFlag } from '../pool-file.ts';
import { readReplayFlags } from '../replay-data.ts';

const USAGE = `usage: baton run --task TEXT --pool pool.json --conductor SPEC [options]

Runs one question: the Conductor writes a workflow, the pool's workers run it, the answer is graded
when --answer is given.

options:
  --task TEXT          the question
  --answer A           its gold answer (then the run is graded); for --kind code, the tests as JSON, as
                       baton grade --kind code takes them (the answer's Python runs in a sandbox)
  --kind K             ${TASK_KINDS.join(' | ')} (default: number for a numeric answer, exact otherwise, open without one)
  --pool FILE          JSON {"workers": [WorkerSpec...]} or a bare array; keys come from the environment.
                       'demo' is the built-in pool of four simulated workers (no keys, no network), 'experts'
                       the simulated pool where only routing by kind works, 'routellm-mmlu' GPT-4 and Mixtral
                       replaying their recorded MMLU answers. An "engine" worker runs the model directory its
                       "model" names (relative to here) on this machine's GPU
  --conductor SPEC     ${CONDUCTOR_CHOICE_HELP}
  --lora DIR           a LoRA adapter for an engine: Conductor that names none
  --replay FILE        a RouteLLM responses CSV for "replay" workers (repeatable; default: data/routellm)
  --seed S             seed of every simulated worker
  --recursion N        recursion rounds after the first (default 0)
  --max-steps K        most steps per workflow (default ${DEFAULT_MAX_STEPS})
  --access MODE        binary (default) or positional
  --budget USD         total dollar cap over every worker call
  --max-tokens N       output tokens per step (default: the worker's, else 4096)
  --timeout MS         time limit of each worker call
  --episodes-dir DIR   where the episode is kept (default: $BATON_EPISODES_DIR, else ./episodes)
  --no-save            do not keep the episode
  --episode-out FILE   also append the episode as one JSON line to FILE
  --json               print the whole episode as JSON instead of the summary
`;

const defaultKind = (answer: string | undefined): TaskKind => (answer === undefined ? 'open' : kindOfAnswer(answer));

/**
 * `retry` overrides the network workers' retry policy (a reward server may want a worker down to fail fast);
 * `local` runs the pool's 'engine' workers (model directories), without it they are refused.
 */
export async function buildPool(
  specs: WorkerSpec[],
  env: CliIo['env'],
  replay: ReplayTable | undefined,
  seed: number | undefined,
  options: { retry?: Partial<RetryPolicy>; local?: LocalModels } = {},
): Promise<WorkerModel[]> {
  const { createWorkerModel } = await loadProviders();
  const { retry, local } = options;
  return specs.map((raw) => {
    const spec = seed !== undefined && raw.simulated ? { ...raw, simulated: { ...raw.simulated, seed } } : raw;
    const { key, keyName } = resolveApiKey(spec, env);
    return createWorkerModel(spec, { apiKey: key, keyName, replay, ...(retry ? { retry } : {}), ...(local ? { local } : {}) });
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const dollars = (usd: number | null) => (usd === null ? '$?' : `$${usd.toFixed(6)}`);

/** Steps count from 0 here, as the access lists of the printed workflow do. */
const FIRST_STEP = 0;
const stepName = (s: StepRecord, round: number) => (round > 0 ? `round ${round} step ${s.index}` : `step ${s.index}`);

/** Each round's workflow fields and steps; round 0 lives in the episode's top-level fields. */
const roundsOf = (ep: Episode) => [{ workflow: ep.workflow, parseError: ep.parseError, kept: false, steps: ep.steps }, ...ep.rounds];

function stepLine(s: StepRecord, round: number, steps: StepRecord[]): string {
  const outcome = stepOutcome(s, steps, FIRST_STEP);
  const result = outcome.state === 'done' ? `${s.usage.input} in / ${s.usage.output} out tokens  ${dollars(s.costUsd)}` : outcomeText(outcome);
  return `${stepName(s, round)}  model ${s.worker} (${s.workerId})  ${seconds(s.latencyMs)}  ${result}`;
}

function summary(ep: Episode): string {
  const lines: string[] = [];
  roundsOf(ep).forEach((r, i) => {
    const title = i === 0 ? 'workflow' : `round ${i} workflow`;
    if (r.kept) lines.push(`${title}: kept the previous answer`);
    else if (r.workflow) lines.push(`${title}:`, renderWorkflow(r.workflow));
    else if (r.parseError !== undefined) lines.push(`${title}: did not parse: ${r.parseError}`);
    lines.push(...r.steps.map((s) => stepLine(s, i, r.steps)));
  });
  lines.push('', 'final answer:', ep.final === '' ? '(none)' : ep.final, '');
  // A code answer's grade says why it was wrong (the failed test, a timeout, ...).
  const why = !ep.reward?.correct && typeof ep.reward?.details?.reason === 'string' ? `: ${ep.reward.details.reason}` : '';
  const reward = ep.reward ? `  reward ${ep.reward.value} (${ep.reward.infraError ? 'infrastructure error' : ep.reward.correct ? 'correct' : `wrong${why}`})` : '';
  lines.push(`status ${ep.status}${reward}  total ${seconds(ep.totals.latencyMs)}, ${ep.totals.usage.input + ep.totals.usage.output} tokens, ${dollars(ep.totals.costUsd)}`);
  const spending = spendingOf(ep);
  const notes = [ep.reward && rewardNote(ep.reward), unknownCostNote(spending), simulatedPriceNote(spending)];
  lines.push(...notes.filter((note) => note !== undefined));
  return `${lines.join('\n')}\n`;
}

/** Why a finished run counts as a failure, in one line, or undefined when it does not. */
function failure(ep: Episode): string | undefined {
  const parseError = roundsOf(ep).map((r) => r.parseError).find((e) => e !== undefined);
  if (ep.status === 'format-error') return `the Conductor's completion did not parse: ${parseError}`;
  if (ep.error) return ep.error.message;
  if (ep.status === 'ok') return undefined;
  // The first step that failed or was refused by itself; the steps it held back say only that.
  for (const [i, r] of roundsOf(ep).entries()) {
    const cause = r.steps.find((s) => s.error && s.error.code !== 'run/aborted');
    if (cause) return `${stepName(cause, i)} (${cause.workerId}) ${outcomeText(stepOutcome(cause, r.steps, FIRST_STEP))}`;
  }
  return `run ended with status ${ep.status}`;
}

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, {
    task: { type: 'string' },
    answer: { type: 'string' },
    kind: { type: 'string' },
    pool: { type: 'string' },
    conductor: { type: 'string' },
    lora: { type: 'string' },
    replay: { type: 'string', multiple: true },
    seed: { type: 'string' },
    recursion: { type: 'string' },
    'max-steps': { type: 'string' },
    access: { type: 'string' },
    budget: { type: 'string' },
    'max-tokens': { type: 'string' },
    timeout: { type: 'string' },
    'episode-out': { type: 'string' },
    'episodes-dir': { type: 'string' },
    'no-save': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  for (const flag of ['task', 'pool', 'conductor'] as const) {
    // Blank is empty: a question of spaces would still be run, and paid for.
    if (!values[flag]?.trim()) throw new CliError(`--${flag} is ${values[flag] === undefined ? 'required' : 'empty'} (see baton run --help)`, 2);
  }
  const kind = (values.kind ?? defaultKind(values.answer)) as TaskKind;
  if (!TASK_KINDS.includes(kind)) throw new CliError(`--kind must be one of ${TASK_KINDS.join(', ')}, got "${values.kind}"`, 2);
  const access = values.access ?? 'binary';
  if (access !== 'binary' && access !== 'positional') throw new CliError(`--access must be binary or positional, got "${access}"`, 2);
  const options: RunOptions = {
    access,
    recursionDepth: intFlag('recursion', values.recursion, 0),
    maxSteps: intFlag('max-steps', values['max-steps'], DEFAULT_MAX_STEPS),
    budgetUsd: numberFlag('budget', values.budget),
    maxTokens: intFlag('max-tokens', values['max-tokens']),
    timeoutMs: intFlag('timeout', values.timeout),
    // Steps stream only into the episode here, never to a screen: a stream cut part-way can be asked again.
    retryCutStreams: true,
  };
  if (options.recursionDepth! < 0) throw new CliError('--recursion must be 0 or more', 2);
  if (options.maxSteps! < 1) throw new CliError('--max-steps must be at least 1', 2);
  const seed = intFlag('seed', values.seed);

  const specs = await readPoolFlag(io, values.pool!);
  const models = new NodeLocalModels(io.cwd);
  const pool = await buildPool(specs, io.env, await readReplayFlags(io, values.replay, specs), seed, { local: models });
  const task: Task = { question: values.task!, kind, ...(values.answer !== undefined ? { answer: values.answer } : {}) };
  const host = { cwd: io.cwd, env: io.env, models, ...(values.lora ? { lora: values.lora } : {}) };
  const conductor = await runConductor(values.conductor!, host, { pool, task, maxSteps: options.maxSteps!, access });
  // A code answer is graded by running it; a gold of the wrong shape is refused before anything is paid for.
  if (kind === 'code' && values.answer !== undefined) parseCodeGold(values.answer);
  const codeRunner = kind === 'code' && values.answer !== undefined ? createNodeCodeRunner() : undefined;

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  let episode: Episode;
  try {
    episode = await runEpisode({ task, pool, conductor, options: { ...options, codeRunner }, signal: controller.signal });
  } finally {
    process.off('SIGINT', stop);
    await models.close();
    await codeRunner?.close();
  }

  if (!values['no-save']) {
    const store = await openEpisodesDir(values['episodes-dir'], io, true);
    await store.put(episode);
    await store.close();
  }
  if (values['episode-out']) await appendFile(resolve(io.cwd, values['episode-out']), `${episodeToLine(episode)}\n`, 'utf8');
  io.stdout(values.json ? `${JSON.stringify(episode, null, 2)}\n` : summary(episode));
  const why = failure(episode);
  if (why) throw new CliError(why);
  return 0;
}
