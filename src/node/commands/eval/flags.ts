/**
 * `baton eval`'s flags and help, and the settings they make: kept in OUT/eval.json, so that --resume runs
 * the same evaluation.
 */
import { resolve } from 'node:path';
import { BUILT_IN_DATASETS, BUILT_IN_TASK_SETS } from '../../../core/bench/index.ts';
import { TASK_KINDS, type TaskKind } from '../../../core/task.ts';
import { DEFAULT_MAX_STEPS } from '../../../core/workflow/index.ts';
import { atLeast, choice, CliError, int, num, text, texts, toggle, type CliIo, type FlagValues } from '../../cli/index.ts';
import { checkPoolFlag, isBuiltInPool, POOL_FLAG, REPLAY_FLAG } from '../../inputs/index.ts';

/** Exit statuses of an evaluation stopped with runs left, to finish with --resume. */
export const STOPPED_BY_CTRL_C = 130;
export const STOPPED_BY_BUDGET = 3;

const ROW_KINDS = TASK_KINDS.filter((k) => k !== 'open');

export const FLAGS = {
  dataset: text({
    arg: 'D',
    help:
      `${BUILT_IN_DATASETS.join(' | ')} (from data/), ${BUILT_IN_TASK_SETS.join(' | ')} (a training task set's held-out questions, split by --seed), ` +
      'a .jsonl, .csv or .parquet file, ' +
      'or hf:owner/name[:config[:split]] (the Hugging Face datasets server; pages cached)',
  }),
  map: text({ arg: 'F=COL,...', help: 'which columns hold question, answer, kind, choices (COL or COL1|COL2|..) and id (default: columns of those names)' }),
  kind: choice(ROW_KINDS, {
    arg: 'K',
    help: `kind of rows without one: ${ROW_KINDS.join(' | ')} (default: mcq for a row with options, number for a numeric answer, exact otherwise)`,
  }),
  'skip-bad': toggle({ help: 'leave out rows that cannot be used, and list them (default: stop and list them)' }),
  subjects: text({ arg: 'LIST', help: 'MMLU subjects, comma-separated (default: all 57)' }),
  offset: int({ arg: 'N', help: 'skip the first N items', default: 0, check: atLeast(0) }),
  limit: int({ arg: 'N', help: 'then take at most N', check: atLeast(1) }),
  pool: POOL_FLAG,
  replay: REPLAY_FLAG,
  method: texts({
    arg: 'M',
    help:
      'conductor:<choice> | single:<worker> | oracle | hindsight[:L,...] (the best worker per kind for correct - L x dollars, from the single runs) | ' +
      'moa[:layers=L,aggregator=<worker>] | random | round-robin | ' +
      'self-reflect:<worker>,<k> | fixed:<plan file>, where <choice> is fixed:<file> | worker:<id> | remote:<model>@<url> | ' +
      'engine:<dir>[,lora=<dir>][,max-tokens=N][,weights=auto|f32|f16|int4][,reasoning=off][,prompt=compact]',
  }),
  lora: text({ arg: 'DIR', help: 'adapter for conductor:engine: choices that name none' }),
  repeats: int({ arg: 'R', help: 'runs of each method on each item', default: 1, check: atLeast(1) }),
  concurrency: int({ arg: 'K', help: 'runs at once', default: 4, check: atLeast(1) }),
  seed: int({
    arg: 'S',
    help: "seeds simulated workers (S + repeat), random routing and engine sampling, and splits a task set's held-out questions",
    default: 0,
  }),
  budget: num({ arg: 'USD', help: 'dollars the whole evaluation may spend on workers; no call starts that could pass it', check: atLeast(0) }),
  'max-steps': int({ arg: 'K', help: "most steps of a Conductor's or random workflow", default: DEFAULT_MAX_STEPS, check: atLeast(1) }),
  'max-tokens': int({ arg: 'N', help: "output tokens per step (default: the worker's, else 4096)", check: atLeast(1) }),
  timeout: int({ arg: 'MS', help: 'time limit of each worker call', check: atLeast(1) }),
  'hf-endpoint': text({ arg: 'URL', help: "the datasets server (default: $BATON_HF_ENDPOINT, else Hugging Face's)" }),
  'cache-dir': text({ arg: 'DIR', help: 'where Hub pages are kept (default: $BATON_CACHE_DIR, else ./.baton-cache)' }),
  out: text({
    arg: 'DIR',
    help:
      'a new or empty directory (default ./eval-<id>; with --resume: the evaluation to continue); ' +
      '--out NAME.json writes the report to that file and everything else to the directory NAME',
  }),
  resume: toggle({
    help:
      'continue the evaluation in --out, with its settings and its data unchanged (only --budget and --concurrency may change); ' +
      'one baton eval at a time holds OUT (OUT/eval.lock)',
  }),
};

export const HELP = {
  usage: `usage: baton eval --dataset D --pool P --method M [--method M ...] [--out DIR|FILE.json] [options]
       baton eval --out DIR|FILE.json --resume [--budget USD] [--concurrency K]

Runs every method on every item, --repeats times, and reports accuracy (± standard error over items),
tokens, dollars, latency, calls per question and malformed workflows per method. A progress line goes
to stderr; OUT/report.json, OUT/report.md and OUT/plot.svg (accuracy against dollars, Pareto front)
are written at the end or at Ctrl-C. Every run is kept in OUT/episodes.jsonl; --resume continues.
`,
  flags: FLAGS,
  after:
    `Exit status: 0 when every run is done, ${STOPPED_BY_CTRL_C} when stopped by Ctrl-C, ` +
    `${STOPPED_BY_BUDGET} when stopped by --budget (runs left to --resume).\n`,
};

/** What --resume takes besides the settings in eval.json: the rest would make a different evaluation. */
export const RESUME_FLAGS = new Set(['out', 'resume', 'budget', 'concurrency', 'cache-dir']);

/** Everything the evaluation depends on, kept in OUT/eval.json so --resume runs the same one. */
export interface EvalRunSettings {
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

export function settingsFromFlags(values: FlagValues<typeof FLAGS>, io: CliIo): EvalRunSettings {
  for (const flag of ['dataset', 'pool'] as const) if (!values[flag]?.trim()) throw new CliError(`--${flag} is required (see baton eval --help)`, 2);
  if (!values.method?.length) throw new CliError('--method is required, once per method (see baton eval --help)', 2);
  checkPoolFlag(values.pool!, io.cwd);
  const path = (p: string) => resolve(io.cwd, p);
  const isFile = !([...BUILT_IN_DATASETS, ...BUILT_IN_TASK_SETS] as string[]).includes(values.dataset!) && !values.dataset!.startsWith('hf:');
  const optional = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    id: crypto.randomUUID().slice(0, 8),
    dataset: values.dataset!,
    ...optional('datasetFile', isFile ? path(values.dataset!) : undefined),
    ...optional('map', values.map),
    ...optional('kind', values.kind),
    skipBad: values['skip-bad'],
    ...optional(
      'subjects',
      values.subjects
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    offset: values.offset,
    ...optional('limit', values.limit),
    pool: isBuiltInPool(values.pool!) ? values.pool! : path(values.pool!),
    replay: (values.replay ?? []).map(path),
    methods: values.method,
    ...optional('lora', values.lora === undefined ? undefined : path(values.lora)),
    repeats: values.repeats,
    concurrency: values.concurrency,
    seed: values.seed,
    ...optional('budgetUsd', values.budget),
    maxSteps: values['max-steps'],
    ...optional('maxTokens', values['max-tokens']),
    ...optional('timeoutMs', values.timeout),
    ...optional('hfEndpoint', values['hf-endpoint'] ?? io.env.BATON_HF_ENDPOINT),
  };
}
