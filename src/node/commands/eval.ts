/**
 * `baton eval`: methods (the Conductor, single workers, the oracle, Mixture-of-Agents, random routing,
 * round-robin, self-reflection, fixed plans) over a data set and a pool, repeated, with a progress line
 * on stderr. Writes OUT/eval.json (its settings), OUT/episodes.jsonl (every finished run, tagged with
 * the evaluation), OUT/calls.jsonl (every worker call, so a resumed run pays for none twice), and at the
 * end, or at a Stop, OUT/report.json, OUT/report.md and OUT/plot.svg. `--out NAME.json` names the report's
 * file instead, and the rest goes to the folder NAME. `--resume` with the same --out continues a killed or
 * stopped evaluation; OUT/eval.lock keeps a second process off the same OUT. Test: test/unit/node/commands/eval.test.ts.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  buildMethods,
  buildReport,
  BUILT_IN_DATASETS,
  memoryCallLog,
  reportMarkdown,
  reportPlotSvg,
  runEvaluation,
  type EvalProgress,
} from '../../core/bench/index.ts';
import { knownCostUsd } from '../../core/episodes/index.ts';
import { TASK_KINDS, type TaskKind } from '../../core/task.ts';
import { DEFAULT_MAX_STEPS } from '../../core/workflow/index.ts';
import { nodeConductorHost } from '../conductors.ts';
import { NodeLocalModels } from '../local-models.ts';
import { itemsHash, loadDataset } from '../eval-data.ts';
import { lockEvalDir, type EvalLock } from '../eval-lock.ts';
import { appendCall, appendEpisode, readCallLog, readEpisodeLog } from '../eval-log.ts';
import { CliError, intFlag, numberFlag, parseFlags, readTextFlag, type CliIo } from '../io.ts';
import { createNodeCodeRunner } from '../node-code-runner.ts';
import { outputDir } from '../out-dir.ts';
import { isBuiltInPool, readPoolFlag } from '../pool-file.ts';
import { readReplayFlags } from '../replay-data.ts';
import { buildPool } from './run.ts';

const USAGE = `usage: baton eval --dataset D --pool P --method M [--method M ...] [--out DIR|FILE.json] [options]
       baton eval --out DIR|FILE.json --resume [--budget USD] [--concurrency K]

Runs every method on every item, --repeats times, and reports accuracy (± standard error over items),
tokens, dollars, latency, calls per question and malformed workflows per method. A progress line goes
to stderr; OUT/report.json, OUT/report.md and OUT/plot.svg (accuracy against dollars, Pareto front)
are written at the end or at Ctrl-C. Every run is kept in OUT/episodes.jsonl; --resume continues.

options:
  --dataset D          ${BUILT_IN_DATASETS.join(' | ')} (from data/), a .jsonl, .csv or .parquet file,
                       or hf:owner/name[:config[:split]] (the Hugging Face datasets server; pages cached)
  --map F=COL,...      which columns hold question, answer, kind, choices (COL or COL1|COL2|..) and id
                       (default: columns of those names)
  --kind K             kind of rows without one: ${TASK_KINDS.filter((k) => k !== 'open').join(' | ')}
                       (default: mcq for a row with options, number for a numeric answer, exact otherwise)
  --skip-bad           leave out rows that cannot be used, and list them (default: stop and list them)
  --subjects LIST      MMLU subjects, comma-separated (default: all 57)
  --offset N           skip the first N items; --limit N: then take at most N
  --pool P             a pool file, demo (four simulated workers), experts (simulated, kind experts) or
                       routellm-mmlu (GPT-4 and Mixtral replaying their recorded MMLU answers)
  --replay FILE        a RouteLLM responses CSV for "replay" workers (repeatable; default: data/routellm)
  --method M           conductor:<choice> | single:<worker> | oracle | moa[:layers=L,aggregator=<worker>] |
                       random | round-robin | self-reflect:<worker>,<k> | fixed:<plan file>, where <choice> is
                       fixed:<file> | worker:<id> | remote:<model>@<url> | engine:<dir>[,lora=<dir>][,max-tokens=N]
                       [,weights=auto|f32|f16|int4][,reasoning=off][,prompt=compact]
  --lora DIR           adapter for conductor:engine: choices that name none
  --repeats R          runs of each method on each item (default 1)
  --concurrency K      runs at once (default 4)
  --seed S             seeds simulated workers (S + repeat), random routing and engine sampling (default 0)
  --budget USD         dollars the whole evaluation may spend on workers; no call starts that could pass it
  --max-steps K        most steps of a Conductor's or random workflow (default ${DEFAULT_MAX_STEPS})
  --max-tokens N       output tokens per step (default: the worker's, else 4096)
  --timeout MS         time limit of each worker call
  --hf-endpoint URL    the datasets server (default: $BATON_HF_ENDPOINT, else Hugging Face's)
  --cache-dir DIR      where Hub pages are kept (default: $BATON_CACHE_DIR, else ./.baton-cache)
  --out DIR            a new or empty directory (default ./eval-<id>; with --resume: the evaluation to continue);
                       --out NAME.json writes the report to that file and everything else to the directory NAME
  --resume             continue the evaluation in --out, with its settings and its data unchanged (only --budget
                       and --concurrency may change); one baton eval at a time holds OUT (OUT/eval.lock)

Exit status: 0 when every run is done, 130 when stopped by Ctrl-C, 3 when stopped by --budget (runs left to --resume).
`;

/** Everything the evaluation depends on, kept in OUT/eval.json so --resume runs the same one. */
interface EvalSettings {
  id: string;
  dataset: string;
  /** The data file --dataset names, absolute. */
  datasetFile?: string;
  map?: string;
  kind?: TaskKind;
  skipBad: boolean;
  subjects?: string[];
  offset: number;
  limit?: number;
  pool: string;
  replay: string[];
  methods: string[];
  lora?: string;
  repeats: number;
  concurrency: number;
  seed: number;
  budgetUsd?: number;
  maxSteps: number;
  maxTokens?: number;
  timeoutMs?: number;
  hfEndpoint?: string;
  /** itemsHash of the items evaluated: a resume refuses a data set that changed (absent in older eval.json files). */
  itemsHash?: string;
}

const FLAGS = {
  dataset: { type: 'string' },
  map: { type: 'string' },
  kind: { type: 'string' },
  'skip-bad': { type: 'boolean' },
  subjects: { type: 'string' },
  offset: { type: 'string' },
  limit: { type: 'string' },
  pool: { type: 'string' },
  replay: { type: 'string', multiple: true },
  method: { type: 'string', multiple: true },
  lora: { type: 'string' },
  repeats: { type: 'string' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  budget: { type: 'string' },
  'max-steps': { type: 'string' },
  'max-tokens': { type: 'string' },
  timeout: { type: 'string' },
  'hf-endpoint': { type: 'string' },
  'cache-dir': { type: 'string' },
  out: { type: 'string' },
  resume: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseFlags<typeof FLAGS>>['values'];

/** What --resume takes besides the settings in eval.json: the rest would make a different evaluation. */
const RESUME_FLAGS = new Set(['out', 'resume', 'budget', 'concurrency', 'cache-dir']);

/** Exit statuses of an evaluation stopped with runs left, to finish with --resume. */
const STOPPED_BY_CTRL_C = 130;
const STOPPED_BY_BUDGET = 3;

function atLeast(flag: string, value: number | undefined, min: number): number | undefined {
  if (value !== undefined && !(value >= min)) throw new CliError(`--${flag} must be at least ${min}, got ${value}`, 2);
  return value;
}

function settingsFromFlags(values: Values, io: CliIo): EvalSettings {
  for (const flag of ['dataset', 'pool'] as const) if (!values[flag]?.trim()) throw new CliError(`--${flag} is required (see baton eval --help)`, 2);
  if (!values.method?.length) throw new CliError('--method is required, once per method (see baton eval --help)', 2);
  const kind = values.kind as TaskKind | undefined;
  if (kind !== undefined && (!TASK_KINDS.includes(kind) || kind === 'open')) throw new CliError(`--kind must be one of ${TASK_KINDS.filter((k) => k !== 'open').join(', ')}, got "${values.kind}"`, 2);
  const path = (p: string) => resolve(io.cwd, p);
  const isFile = !(BUILT_IN_DATASETS as readonly string[]).includes(values.dataset!) && !values.dataset!.startsWith('hf:');
  const optional = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    id: crypto.randomUUID().slice(0, 8),
    dataset: values.dataset!,
    ...optional('datasetFile', isFile ? path(values.dataset!) : undefined),
    ...optional('map', values.map),
    ...optional('kind', kind),
    skipBad: values['skip-bad'] ?? false,
    ...optional('subjects', values.subjects?.split(',').map((s) => s.trim()).filter(Boolean)),
    offset: atLeast('offset', intFlag('offset', values.offset, 0), 0)!,
    ...optional('limit', atLeast('limit', intFlag('limit', values.limit), 1)),
    pool: isBuiltInPool(values.pool!) ? values.pool! : path(values.pool!),
    replay: (values.replay ?? []).map(path),
    methods: values.method,
    ...optional('lora', values.lora === undefined ? undefined : path(values.lora)),
    repeats: atLeast('repeats', intFlag('repeats', values.repeats, 1), 1)!,
    concurrency: atLeast('concurrency', intFlag('concurrency', values.concurrency, 4), 1)!,
    seed: intFlag('seed', values.seed, 0)!,
    ...optional('budgetUsd', atLeast('budget', numberFlag('budget', values.budget), 0)),
    maxSteps: atLeast('max-steps', intFlag('max-steps', values['max-steps'], DEFAULT_MAX_STEPS), 1)!,
    ...optional('maxTokens', atLeast('max-tokens', intFlag('max-tokens', values['max-tokens']), 1)),
    ...optional('timeoutMs', atLeast('timeout', intFlag('timeout', values.timeout), 1)),
    ...optional('hfEndpoint', values['hf-endpoint'] ?? io.env.BATON_HF_ENDPOINT),
  };
}


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

const takeOverLock = (io: CliIo, dir: string) => (pid: string) => io.stderr(`taking over ${join(dir, 'eval.lock')}: its baton eval (pid ${pid}) is no longer running\n`);

async function evaluate(argv: string[], io: CliIo, held: { lock?: EvalLock }, runsStart: () => void): Promise<number> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  let out: string | undefined;
  let settings: EvalSettings;
  const target = values.out === undefined ? undefined : await outTarget(io.cwd, values.out, values.resume === true);
  if (values.resume) {
    if (!target) throw new CliError('--resume needs --out DIR, the evaluation to continue', 2);
    const fixed = Object.keys(values).filter((flag) => !RESUME_FLAGS.has(flag));
    if (fixed.length) {
      throw new CliError(`--resume runs the evaluation as ${join(target.dir, 'eval.json')} has it; only --budget and --concurrency can change, not ${fixed.map((f) => `--${f}`).join(', ')} (for other settings start a new evaluation with another --out)`, 2);
    }
    out = target.dir;
    settings = JSON.parse(await readTextFlag(io, 'out', join(out, 'eval.json'))) as EvalSettings;
    held.lock = await lockEvalDir(out, takeOverLock(io, out));
    if (values.budget !== undefined) settings.budgetUsd = atLeast('budget', numberFlag('budget', values.budget), 0);
    if (values.concurrency !== undefined) settings.concurrency = atLeast('concurrency', intFlag('concurrency', values.concurrency), 1)!;
  } else {
    settings = settingsFromFlags(values, io);
  }

  let lastHubLine = 0;
  const data = await loadDataset({
    dataset: settings.dataset,
    ...(settings.datasetFile ? { file: settings.datasetFile } : {}),
    ...(settings.map ? { map: settings.map } : {}),
    ...(settings.subjects ? { subjects: settings.subjects } : {}),
    ...(settings.kind ? { kind: settings.kind } : {}),
    offset: settings.offset,
    ...(settings.limit !== undefined ? { limit: settings.limit } : {}),
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
    throw new CliError(`--resume: the items of ${settings.dataset} changed since this evaluation started (rows added, removed or edited: a question, answer, kind or id); its runs would not match them. Restore the data, or start a new evaluation with another --out.`);
  }
  settings.itemsHash = hash;
  if (data.tasks.length === 0) throw new CliError(`--dataset ${settings.dataset}: no items to evaluate${data.bad.length ? ` (${data.bad.length} bad rows skipped)` : ''}`);

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
      ...(built.oracle ? { oracle: { singles: specs.map((w) => `single:${w.id}`) } } : {}),
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
    io.stdout(`${reportMarkdown(report)}\n${target?.reportFile ? `report written to ${reportFile}, its runs, Markdown and plot to ${out}` : `written to ${out}`}\n`);
    const resume = `baton eval --out ${target?.reportFile ?? out} --resume`;
    if (result.overBudget) {
      // Each call reserves its worst case first, so the stop can come with part of the budget unspent.
      const spent = result.episodes.reduce((s, e) => s + knownCostUsd(e), 0);
      io.stderr(`stopped by the --budget of $${settings.budgetUsd}: the finished runs cost $${spent.toFixed(4)}, and the next call's worst case (its prompt and max output tokens at its worker's price) did not fit in what was left; ${result.remaining} runs left (continue with a larger one: ${resume} --budget USD)\n`);
    }
    if (result.stopped) io.stderr(`stopped with ${result.remaining} runs left; continue with: ${resume}\n`);
    return result.stopped ? STOPPED_BY_CTRL_C : result.overBudget ? STOPPED_BY_BUDGET : 0;
  } finally {
    process.off('SIGINT', stop);
    await Promise.all([models.close(), codeRunner?.close()]);
  }
}
