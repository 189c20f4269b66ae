/**
 * `baton eval`: methods (the Conductor, single workers, the oracle, Mixture-of-Agents, random routing,
 * round-robin, self-reflection, fixed plans) over a data set and a pool, repeated, with a progress line
 * on stderr. Writes OUT/eval.json (its settings), OUT/episodes.jsonl (every finished run, tagged with
 * the evaluation), OUT/calls.jsonl (every worker call, so a resumed run pays for none twice), and at the
 * end, or at a Stop, OUT/report.json, OUT/report.md and OUT/plot.svg. `--out NAME.json` names the report's
 * file instead, and the rest goes to the folder NAME. `--resume` with the same --out continues a killed or
 * stopped evaluation; OUT/eval.lock keeps a second process off the same OUT. Test: test/unit/node/commands/eval/eval.test.ts.
 */
import { stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  buildMethods,
  buildReport,
  fromSingles,
  memoryCallLog,
  reportMarkdown,
  reportPlotSvg,
  runEvaluation,
  type EvalProgress,
} from '../../../core/bench/index.ts';
import { knownCostUsd } from '../../../core/episodes/index.ts';
import { CliError, parseFlags, printHelp, readTextFlag, type CliIo } from '../../cli/index.ts';
import { buildPool, itemsHash, loadEvalData, readPoolFlag, readReplayFlags } from '../../inputs/index.ts';
import { NodeLocalModels, nodeConductorHost } from '../../runtimes/index.ts';
import { createNodeCodeRunner } from '../../sandbox/index.ts';
import { appendCall, appendEpisode, lockEvalDir, outputDir, readCallLog, readEpisodeLog, type EvalLock } from '../../stores/index.ts';
import { FLAGS, HELP, RESUME_FLAGS, settingsFromFlags, STOPPED_BY_BUDGET, STOPPED_BY_CTRL_C, type EvalRunSettings } from './flags.ts';

const clock = (ms: number) => {
  const total = Math.round(ms / 1000);
  return total >= 60 ? `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s` : `${total}s`;
};

function progressLine(p: EvalProgress): string {
  const accuracy = p.graded > 0 ? `accuracy ${(p.correct / p.graded).toFixed(3)} (${p.correct}/${p.graded})` : 'accuracy –';
  const left = p.etaMs === undefined ? '' : `  ~${clock(p.etaMs)} left`;
  return `eval ${p.done}/${p.total} runs  ${accuracy}  $${p.costUsd.toFixed(4)}  ${clock(p.elapsedMs)}${left}\n`;
}

/**
 * Where --out puts things: a directory, or (the name ends in .json and is no evaluation's directory) the
 * report's file, with everything else in the directory of the same name without .json. A new evaluation
 * never writes over an existing report file.
 */
async function outTarget(cwd: string, out: string, resume: boolean): Promise<{ dir: string; reportFile?: string }> {
  const path = resolve(cwd, out);
  const existing = await stat(path).catch(() => undefined);
  if (!path.endsWith('.json') || existing?.isDirectory()) return { dir: path };
  if (existing && !resume) throw new CliError(`--out ${out} exists; name a new report file so nothing is overwritten`, 2);
  return { dir: path.slice(0, -'.json'.length), reportFile: path };
}

export async function evalCommand(argv: string[], io: CliIo): Promise<number> {
  // Released however the evaluation ends: done, stopped, or an error.
  const held: { lock?: EvalLock } = {};
  // Until the runs start (then Ctrl-C stops them and writes the report), Ctrl-C ends the process as it
  // always did, but frees OUT first: reading a Hub data set can take long.
  const quit = () => {
    held.lock?.releaseSync();
    process.exit(STOPPED_BY_CTRL_C);
  };
  process.once('SIGINT', quit);
  try {
    return await evaluate(argv, io, held, () => process.off('SIGINT', quit));
  } finally {
    process.off('SIGINT', quit);
    await held.lock?.release();
  }
}

const takeOverLock = (io: CliIo, dir: string) => (pid: string) =>
  io.stderr(`taking over ${join(dir, 'eval.lock')}: its baton eval (pid ${pid}) is no longer running\n`);

async function evaluate(argv: string[], io: CliIo, held: { lock?: EvalLock }, runsStart: () => void): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values, given } = args;
  let out: string | undefined;
  let settings: EvalRunSettings;
  const target = values.out === undefined ? undefined : await outTarget(io.cwd, values.out, values.resume);
  if (values.resume) {
    if (!target) throw new CliError('--resume needs --out DIR, the evaluation to continue', 2);
    const fixed = [...given].filter((flag) => !RESUME_FLAGS.has(flag));
    if (fixed.length) {
      throw new CliError(
        `--resume runs the evaluation as ${join(target.dir, 'eval.json')} has it; only --budget and --concurrency can change, not ${fixed.map((f) => `--${f}`).join(', ')} (for other settings start a new evaluation with another --out)`,
        2,
      );
    }
    out = target.dir;
    settings = JSON.parse(await readTextFlag(io, 'out', join(out, 'eval.json'))) as EvalRunSettings;
    held.lock = await lockEvalDir(out, takeOverLock(io, out));
    if (given.has('budget')) settings.budgetUsd = values.budget;
    if (given.has('concurrency')) settings.concurrency = values.concurrency;
  } else {
    settings = settingsFromFlags(values, io);
  }

  let lastHubLine = 0;
  const data = await loadEvalData({
    dataset: settings.dataset,
    ...(settings.datasetFile ? { file: settings.datasetFile } : {}),
    ...(settings.map ? { map: settings.map } : {}),
    ...(settings.subjects ? { subjects: settings.subjects } : {}),
    ...(settings.kind ? { kind: settings.kind } : {}),
    offset: settings.offset,
    ...(settings.limit !== undefined ? { limit: settings.limit } : {}),
    seed: settings.seed,
    skipBad: settings.skipBad,
    cwd: io.cwd,
    ...(settings.hfEndpoint ? { hfEndpoint: settings.hfEndpoint } : {}),
    cacheDir: resolve(io.cwd, values['cache-dir'] ?? io.env.BATON_CACHE_DIR ?? '.baton-cache'),
    onProgress: (read, total) => {
      if (read < total && performance.now() - lastHubLine < 1000) return;
      lastHubLine = performance.now();
      io.stderr(`reading ${settings.dataset}: ${read}/${total} rows\n`);
    },
  });
  for (const b of data.bad) io.stderr(`skipped ${settings.dataset} line ${b.line}: ${b.reason}\n`);
  const hash = itemsHash(data.tasks);
  if (values.resume && settings.itemsHash !== undefined && settings.itemsHash !== hash) {
    throw new CliError(
      `--resume: the items of ${settings.dataset} changed since this evaluation started (rows added, removed or edited: a question, answer, kind or id); its runs would not match them. Restore the data, or start a new evaluation with another --out.`,
    );
  }
  settings.itemsHash = hash;
  if (data.tasks.length === 0)
    throw new CliError(`--dataset ${settings.dataset}: no items to evaluate${data.bad.length ? ` (${data.bad.length} bad rows skipped)` : ''}`);

  const specs = await readPoolFlag(io, settings.pool);
  const replay = await readReplayFlags(io, settings.replay, specs);
  const models = new NodeLocalModels(io.cwd);
  const pools = await Promise.all(Array.from({ length: settings.repeats }, (_, r) => buildPool(specs, io.env, replay, settings.seed + r, { local: models })));

  // Code items are graded by running them in the Python sandbox (a worker thread, started only when needed).
  const codeRunner = data.tasks.some((t) => t.kind === 'code') ? createNodeCodeRunner() : undefined;
  const controller = new AbortController();
  const stop = () => controller.abort();
  runsStart();
  process.once('SIGINT', stop);
  try {
    const host = nodeConductorHost({ cwd: io.cwd, env: io.env, models, ...(settings.lora ? { lora: settings.lora } : {}) });
    const built = await buildMethods(settings.methods, { workers: specs, maxSteps: settings.maxSteps, naming: 'dir', conductorHost: () => host });
    for (const maker of built.conductors.values()) await maker.load();
    // Only now, with every input read and every method built: a mistake leaves no directory behind.
    if (!out) {
      out = await outputDir(io, target?.dir ?? `eval-${settings.id}`, []);
      held.lock = await lockEvalDir(out, takeOverLock(io, out));
    }
    if (!values.resume) await writeFile(join(out, 'eval.json'), `${JSON.stringify(settings, null, 2)}\n`);
    for (const name of built.added) io.stderr(`oracle: adding ${name} (the oracle is read from every worker's single runs)\n`);
    const files = { episodes: join(out, 'episodes.jsonl'), calls: join(out, 'calls.jsonl') };
    const stored = await readEpisodeLog(files.episodes);
    const calls = memoryCallLog(await readCallLog(files.calls), (c) => appendCall(files.calls, c));
    let lastLine = 0;
    const result = await runEvaluation({
      id: settings.id,
      items: data.tasks,
      methods: built.methods,
      repeats: settings.repeats,
      concurrency: settings.concurrency,
      pool: (r) => pools[r],
      seed: settings.seed,
      ...(settings.budgetUsd !== undefined ? { budgetUsd: settings.budgetUsd } : {}),
      runOptions: {
        maxSteps: settings.maxSteps,
        ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
        ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
        retryCutStreams: true,
        ...(codeRunner ? { codeRunner } : {}),
      },
      stored,
      calls,
      signal: controller.signal,
      onEpisode: (e) => appendEpisode(files.episodes, e),
      onProgress: (p) => {
        if (p.done < p.total && performance.now() - lastLine < 1000) return;
        lastLine = performance.now();
        io.stderr(progressLine(p));
      },
    });
    const names = built.methods.map((m) => m.name);
    const report = buildReport(result.episodes, {
      evalId: settings.id,
      methods: names,
      ...fromSingles(built, specs),
      evaluation: {
        dataset: settings.dataset,
        items: data.tasks.length,
        skippedRows: data.bad.length,
        repeats: settings.repeats,
        pool: specs.map((w) => w.id),
        seed: settings.seed,
        runs: result.episodes.length,
        remaining: result.remaining,
        ...(built.added.length ? { addedForOracle: built.added } : {}),
      },
    });
    const reportFile = target?.reportFile ?? join(out, 'report.json');
    await writeFile(reportFile, `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(join(out, 'report.md'), reportMarkdown(report));
    await writeFile(join(out, 'plot.svg'), reportPlotSvg(report));
    io.stdout(
      `${reportMarkdown(report)}\n${target?.reportFile ? `report written to ${reportFile}, its runs, Markdown and plot to ${out}` : `written to ${out}`}\n`,
    );
    const resume = `baton eval --out ${target?.reportFile ?? out} --resume`;
    if (result.overBudget) {
      // Each call reserves its worst case first, so the stop can come with part of the budget unspent.
      const spent = result.episodes.reduce((s, e) => s + knownCostUsd(e), 0);
      io.stderr(
        `stopped by the --budget of $${settings.budgetUsd}: the finished runs cost $${spent.toFixed(4)}, and the next call's worst case (its prompt and max output tokens at its worker's price) did not fit in what was left; ${result.remaining} runs left (continue with a larger one: ${resume} --budget USD)\n`,
      );
    }
    if (result.stopped) io.stderr(`stopped with ${result.remaining} runs left; continue with: ${resume}\n`);
    return result.stopped ? STOPPED_BY_CTRL_C : result.overBudget ? STOPPED_BY_BUDGET : 0;
  } finally {
    process.off('SIGINT', stop);
    await Promise.all([models.close(), codeRunner?.close()]);
  }
}
