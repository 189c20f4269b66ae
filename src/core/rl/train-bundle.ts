/**
 * A training run packed for a GPU server: one folder holding the bundled `baton` CLI (baton.mjs, which
 * needs only Node and the `webgpu` package), the run's settings as a `baton train --config` file, the
 * task set (and held-out set) as JSONL, the pool without keys, the model when it is small enough to
 * travel, and a README with the one command. `baton export train-bundle` writes it to a directory, the
 * Train page's "Export for a GPU server" as a zip; both build it here.
 * Test: test/unit/core/rl/train-bundle.test.ts; run for real in test/engine/node/commands/export/train-bundle.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { defaultKeyName, type WorkerSpec } from '../providers/index.ts';
import {
  normalizeQuestion,
  recordedSourceOf,
  replayColumn,
  routeLlmCsv,
  type RecordedSource,
  type RecordedSourceData,
  type ReplayTable,
} from '../providers/replay/index.ts';
import type { Task } from '../task.ts';

const BUNDLE_SCRIPT = 'baton.mjs';

export interface TrainBundleInput {
  /** The bundled CLI. */
  script: Uint8Array;
  /** The `webgpu` package version the CLI was built against. */
  webgpuVersion: string;
  /** `baton train` settings named as its flags; the builder sets model, pool, tasks and held-out to the bundle's files. */
  settings: Record<string, string | number | boolean>;
  tasks: readonly Task[];
  heldOut: readonly Task[];
  pool: readonly WorkerSpec[];
  /** The model directory's files, to ship in model/; or where the server should get it (a Hub repo id, a URL) when absent. */
  model: { files: Record<string, Uint8Array> } | { source: string };
  /** The RouteLLM records the pool's other replay workers read; the bundle keeps those of its tasks as replay.csv. */
  replay?: ReplayTable;
  /**
   * The recorded sources the pool's replay workers of a recorded pool read (recordedSourcesOf): the bundle keeps the
   * records of its tasks by the pool's models in data/<source>/, as the repository's data/ holds them, where the
   * bundled CLI reads them with their recorded tokens and dollars.
   */
  recorded?: Partial<Record<RecordedSource, RecordedSourceData>>;
}

/** The recorded sources (data/zeroeval, data/routerbench) the pool's replay workers read. */
export function recordedSourcesOf(pool: readonly WorkerSpec[]): RecordedSource[] {
  return [...new Set(pool.filter((w) => w.provider === 'replay').map((w) => recordedSourceOf(w.model)))].filter((s) => s !== undefined);
}

const encoder = new TextEncoder();
const taskLine = (t: Task) =>
  `${JSON.stringify({ question: t.question, answer: t.answer ?? '', kind: t.kind, ...(t.choices ? { choices: t.choices } : {}), ...(t.dataset ? { dataset: t.dataset } : {}), ...(t.itemId ? { itemId: t.itemId } : {}) })}\n`;

/** A worker spec as a pool file holds it: keys never travel. */
function withoutKey(spec: WorkerSpec): WorkerSpec {
  const { key: _, ...rest } = spec as WorkerSpec & { key?: unknown };
  return rest;
}

function readme(input: TrainBundleInput, keyNames: string[], run: string): string {
  const model =
    'files' in input.model
      ? 'The model is in `model/`.'
      : `Put the model directory (config.json, safetensors weights, tokenizer.json, tokenizer_config.json) in \`model/\` first: it is ${input.model.source}.`;
  const keys =
    keyNames.length === 0 ? 'The pool needs no keys.' : `The pool reads its keys from the environment: ${keyNames.map((k) => `\`${k}\``).join(', ')}.`;
  return `# A Baton training run for a GPU server

\`baton.mjs\` is Baton's command-line tool in one file; it needs Node 20 or later and the \`webgpu\` package (Dawn).
${model} ${keys}

\`\`\`sh
${run}
\`\`\`

It trains as \`baton train\` does: a progress line per step, \`run/metrics.jsonl\`, \`run/episodes.jsonl\`,
checkpoints in \`run/checkpoints/\` (after Ctrl-C or a kill, \`node baton.mjs train --resume run\` continues the same run),
and the trained adapter in \`run/adapter/\` (PEFT layout; \`run/model/\` for full fine-tuning).

Files: \`config.json\` (the settings; \`node baton.mjs train --help\` explains each), \`tasks.jsonl\`${input.heldOut.length > 0 ? ' and `held-out.jsonl`' : ''}
(one task a line: question, answer, kind), \`pool.json\` (the workers, without keys)${replayCsvOf(input) !== undefined ? ', `replay.csv` (the recorded answers its replay workers give)' : ''}${recordedSourcesOf(input.pool).length > 0 ? ', `data/` (the recorded answers, tokens and dollars of its replayed models on these questions, read by `baton.mjs` from beside it)' : ''}.
`;
}

/** The records of the pool's RouteLLM replay workers on the bundle's tasks, as a RouteLLM CSV; undefined for a pool without them. */
function replayCsvOf({ pool, replay, tasks, heldOut }: TrainBundleInput): string | undefined {
  const replayed = pool.filter((w) => w.provider === 'replay' && recordedSourceOf(w.model) === undefined);
  if (replayed.length === 0) return undefined;
  if (!replay) throw new BatonError({ code: 'run/config', message: 'The pool has replay workers but no recorded answers were given to bundle.' });
  return routeLlmCsv(
    replay,
    replayed.map((w) => replayColumn(replay, w.model)),
    [...tasks, ...heldOut].map((t) => t.question),
  );
}

/** data/<source>/models.json and <set>.jsonl: the records of the pool's recorded models on the bundle's questions. */
function recordedFilesOf({ pool, recorded, tasks, heldOut }: TrainBundleInput): Record<string, string> {
  const asked = new Set([...tasks, ...heldOut].map((t) => normalizeQuestion(t.question)));
  const files: Record<string, string> = {};
  for (const source of recordedSourcesOf(pool)) {
    const data = recorded?.[source];
    if (!data) throw new BatonError({ code: 'run/config', message: `The pool replays ${source}'s recorded answers, but they were not given to bundle.` });
    const ids = new Set(pool.filter((w) => w.provider === 'replay' && recordedSourceOf(w.model) === source).map((w) => w.model.slice(source.length + 1)));
    files[`data/${source}/models.json`] = `${JSON.stringify(
      data.models.filter((m) => ids.has(m.id)),
      null,
      2,
    )}\n`;
    for (const { set, questions } of data.sets) {
      const lines = questions
        .filter((q) => asked.has(normalizeQuestion(q.question)))
        .map((q) => JSON.stringify({ ...q, records: Object.fromEntries(Object.entries(q.records).filter(([id]) => ids.has(id))) }));
      if (lines.length > 0) files[`data/${source}/${set}.jsonl`] = `${lines.join('\n')}\n`;
    }
  }
  return files;
}

/** The bundle's files by path. */
export function trainBundleFiles(input: TrainBundleInput): Record<string, Uint8Array> {
  if (input.tasks.length === 0) throw new BatonError({ code: 'run/config', message: 'A training bundle needs tasks to train on.' });
  const settings: Record<string, string | number | boolean> = { ...input.settings, model: 'model', pool: 'pool.json', tasks: 'tasks.jsonl' };
  delete settings['held-out'];
  delete settings.out;
  delete settings.replay;
  if (input.heldOut.length > 0) settings['held-out'] = 'held-out.jsonl';
  const replayCsv = replayCsvOf(input);
  if (replayCsv !== undefined) settings.replay = 'replay.csv';
  const keyNames = [...new Set(input.pool.map(defaultKeyName).filter((k): k is string => k !== undefined))];
  const run = `npm i webgpu@${input.webgpuVersion} && node ${BUNDLE_SCRIPT} train --config config.json --out run`;
  const files: Record<string, Uint8Array> = {
    [BUNDLE_SCRIPT]: input.script,
    'config.json': encoder.encode(`${JSON.stringify(settings, null, 2)}\n`),
    'tasks.jsonl': encoder.encode(input.tasks.map(taskLine).join('')),
    'pool.json': encoder.encode(`${JSON.stringify({ workers: input.pool.map(withoutKey) }, null, 2)}\n`),
    'README.md': encoder.encode(readme(input, keyNames, run)),
  };
  if (input.heldOut.length > 0) files['held-out.jsonl'] = encoder.encode(input.heldOut.map(taskLine).join(''));
  if (replayCsv !== undefined) files['replay.csv'] = encoder.encode(replayCsv);
  for (const [path, text] of Object.entries(recordedFilesOf(input))) files[path] = encoder.encode(text);
  if ('files' in input.model) for (const [name, bytes] of Object.entries(input.model.files)) files[`model/${name}`] = bytes;
  return files;
}
