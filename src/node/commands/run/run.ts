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
} from '../../../core/episodes/index.ts';
import { runEpisode, type RunOptions } from '../../../core/orchestra/index.ts';
import { parseCodeGold } from '../../../core/reward/index.ts';
import { kindOfAnswer, type Task, type TaskKind } from '../../../core/task.ts';
import { renderWorkflow } from '../../../core/workflow/index.ts';
import { CliError, parseFlags, printHelp, type CliIo } from '../../cli/index.ts';
import { buildPool, readPoolFlag, readReplayFlags } from '../../inputs/index.ts';
import { NodeLocalModels, runConductor } from '../../runtimes/index.ts';
import { createNodeCodeRunner } from '../../sandbox/index.ts';
import { openEpisodesDir } from '../../stores/index.ts';
import { FLAGS, HELP } from './flags.ts';

const defaultKind = (answer: string | undefined): TaskKind => (answer === undefined ? 'open' : kindOfAnswer(answer));

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
  const reward = ep.reward
    ? `  reward ${ep.reward.value} (${ep.reward.infraError ? 'infrastructure error' : ep.reward.correct ? 'correct' : `wrong${why}`})`
    : '';
  lines.push(
    `status ${ep.status}${reward}  total ${seconds(ep.totals.latencyMs)}, ${ep.totals.usage.input + ep.totals.usage.output} tokens, ${dollars(ep.totals.costUsd)}`,
  );
  const spending = spendingOf(ep);
  const notes = [ep.reward && rewardNote(ep.reward), unknownCostNote(spending), simulatedPriceNote(spending)];
  lines.push(...notes.filter((note) => note !== undefined));
  return `${lines.join('\n')}\n`;
}

/** Why a finished run counts as a failure, in one line, or undefined when it does not. */
function failure(ep: Episode): string | undefined {
  const parseError = roundsOf(ep)
    .map((r) => r.parseError)
    .find((e) => e !== undefined);
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
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  for (const flag of ['task', 'pool', 'conductor'] as const) {
    // Blank is empty: a question of spaces would still be run, and paid for.
    if (!values[flag]?.trim()) throw new CliError(`--${flag} is ${values[flag] === undefined ? 'required' : 'empty'} (see baton run --help)`, 2);
  }
  const kind = values.kind ?? defaultKind(values.answer);
  const { access, seed } = values;
  const options: RunOptions = {
    access,
    recursionDepth: values.recursion,
    maxSteps: values['max-steps'],
    budgetUsd: values.budget,
    maxTokens: values['max-tokens'],
    timeoutMs: values.timeout,
    // Steps stream only into the episode here, never to a screen: a stream cut part-way can be asked again.
    retryCutStreams: true,
  };

  const specs = await readPoolFlag(io, values.pool!);
  const models = new NodeLocalModels(io.cwd);
  const pool = await buildPool(specs, io.env, await readReplayFlags(io, values.replay, specs), seed, { local: models });
  const task: Task = { question: values.task!, kind, ...(values.answer !== undefined ? { answer: values.answer } : {}) };
  const host = { cwd: io.cwd, env: io.env, models, ...(values.lora ? { lora: values.lora } : {}) };
  const conductor = await runConductor(values.conductor!, host, { pool, task, maxSteps: values['max-steps'], access });
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
