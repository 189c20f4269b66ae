/**
 * `baton export train-bundle --config FILE --out DIR`: a `baton train` run packed for a GPU server
 * (core/rl's trainBundleFiles): baton.mjs (the CLI bundled by cli/bundle.ts), config.json, the tasks
 * and held-out tasks as JSONL, pool.json without keys, a replay pool's records of those tasks (replay.csv,
 * or a recorded pool's data/<source>/ files), README.md with the one command, and with
 * --with-model the model directory itself.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readRecordedSource } from '../../../core/bench/index.ts';
import { recordedSourcesOf, trainBundleFiles } from '../../../core/rl/index.ts';
import { bundleCli, CliError, parseFlags, printHelp, readTextFlag, text, toggle, webgpuVersion, type CliIo } from '../../cli/index.ts';
import { NODE_DATA_FILES, parseTaskFile, readPoolFlag, readReplayFlags, readTasksFlag } from '../../inputs/index.ts';
import { outputDir } from '../../stores/index.ts';

const FLAGS = {
  config: text({ arg: 'FILE', help: 'baton train\'s settings as JSON ({"model": "DIR", "pool": "experts", "tasks": "tasks.jsonl", ...})' }),
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
  'with-model': toggle({ help: 'copy the model directory into the bundle (model/); otherwise README says where to put it' }),
};

const HELP = {
  usage: `usage: baton export train-bundle --config FILE --out DIR [--with-model]

Packs a baton train run for a machine with a GPU and Node: baton.mjs (this CLI in one file; it needs only
the webgpu package), config.json (the settings of FILE, a baton train --config file, with the bundle's own
paths), tasks.jsonl (and held-out.jsonl), pool.json (the workers, without keys), a recorded pool's answers on
those tasks in data/ (as the repository's data/ holds them) and README.md with the one
command to run there:  npm i webgpu@${'<version>'} && node baton.mjs train --config config.json --out run
`,
  flags: FLAGS,
};

export async function exportTrainBundleCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  if (!values.config) throw new CliError('--config FILE is required (see baton export train-bundle --help)', 2);
  let settings: Record<string, string | number | boolean>;
  try {
    settings = JSON.parse(await readTextFlag(io, 'config', values.config)) as Record<string, string | number | boolean>;
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`--config ${values.config}: not JSON (${(e as Error).message})`, 2);
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    throw new CliError(`--config ${values.config}: must be a JSON object of baton train's settings`, 2);
  for (const key of ['model', 'pool', 'tasks'] as const) {
    if (typeof settings[key] !== 'string') throw new CliError(`--config ${values.config}: "${key}" is required, as baton train needs it`, 2);
  }
  if (settings.lora !== undefined) throw new CliError(`--config ${values.config}: a bundle starts a new adapter (or --full); leave "lora" out`, 2);
  // The seed of the built-in task sets' split, read as baton train reads its --seed.
  const seed = settings.seed === undefined ? 0 : Number(settings.seed);
  if (!Number.isInteger(seed)) throw new CliError(`--seed must be an integer, got "${settings.seed}"`, 2);
  const pool = await readPoolFlag(io, String(settings.pool));
  const sets = await readTasksFlag(io, String(settings.tasks), seed);
  const heldOutFile = settings['held-out'];
  const heldOut = typeof heldOutFile === 'string' ? parseTaskFile(await readTextFlag(io, 'held-out', heldOutFile), heldOutFile) : sets.heldOut;
  const modelDir = resolve(io.cwd, String(settings.model));
  const out = await outputDir(io, values.out, [modelDir]);
  const model = values['with-model']
    ? { files: await directoryFiles(modelDir) }
    : { source: `the model ${String(settings.model)} (a Hugging Face model directory)` };
  const replay = await readReplayFlags(io, typeof settings.replay === 'string' ? [settings.replay] : [], pool);
  const recorded = Object.fromEntries(await Promise.all(recordedSourcesOf(pool).map(async (s) => [s, await readRecordedSource(NODE_DATA_FILES, s)] as const)));
  const files = trainBundleFiles({
    script: await bundleCli(),
    webgpuVersion: webgpuVersion(),
    settings,
    tasks: sets.train,
    heldOut,
    pool,
    model,
    ...(replay ? { replay } : {}),
    recorded,
  });
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(out, path)), { recursive: true });
    await writeFile(join(out, path), bytes);
  }
  io.stdout(`${JSON.stringify({ out, files: Object.keys(files).sort() })}\n`);
  return 0;
}

async function directoryFiles(dir: string): Promise<Record<string, Uint8Array>> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    throw new CliError(`--with-model: cannot read the model directory ${dir}`, 2);
  }
  const files: Record<string, Uint8Array> = {};
  for (const e of entries) if (e.isFile()) files[e.name] = new Uint8Array(await readFile(join(dir, e.name)));
  return files;
}
