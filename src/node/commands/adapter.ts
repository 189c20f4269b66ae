/**
 * `baton adapter init | merge`: a fresh LoRA adapter in PEFT's layout for a model directory (what a
 * GRPO run starts from), and an adapter folded into its base model (for servers that load no
 * adapters). Neither needs a GPU.
 */
import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { seededRandom } from '../../core/random.ts';
import { TRAINING_DEFAULTS } from '../../core/rl/index.ts';
import { filesFromDir } from '../../engine/model/files-node.ts';
import { ADAPTER_WEIGHTS, initLoraAdapter, linearModules, mergeLora, openModel, readPeftAdapter, writePeftAdapter } from '../../engine/model/index.ts';
import { CliError, int, LORA_TARGETS_FLAG, num, optionsHelp, parseFlags, positive, positiveInteger, printHelp, text, type CliIo } from '../cli/index.ts';
import { outputDir } from '../stores/index.ts';

const INIT_FLAGS = {
  model: text({ arg: 'DIR', help: 'the base model directory' }),
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
  r: int({ arg: 'R', help: 'rank', default: 8, check: positiveInteger }),
  alpha: num({ arg: 'A', help: 'scale alpha; the update is (alpha/r) B A (default 2 x r)', check: positive }),
  targets: { ...LORA_TARGETS_FLAG, default: [...TRAINING_DEFAULTS.loraTargets] },
  seed: int({ arg: 'S', help: "fixes A's draws (default: a random seed, printed)" }),
};

const MERGE_FLAGS = {
  model: text({ arg: 'DIR', help: 'the base model directory' }),
  lora: text({ arg: 'DIR', help: 'the adapter directory (PEFT layout)' }),
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
};

const USAGE = `usage: baton adapter init --model DIR --out DIR [--r 8] [--alpha 16] [--targets q_proj,v_proj,...] [--seed S]
       baton adapter merge --model DIR --lora DIR --out DIR

init    writes OUT/adapter_config.json and OUT/adapter_model.safetensors: a new LoRA adapter as PEFT
        makes one (A uniform in +-1/sqrt(in), B = 0, so the adapted model starts equal to the base).
merge   writes OUT as a model directory: the base's files with every adapted weight W + (alpha/r) B A,
        in the base's dtype and file layout.
Both print one JSON line describing what they wrote.

init options:
${optionsHelp(INIT_FLAGS)}
merge options:
${optionsHelp(MERGE_FLAGS)}`;

async function init(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, INIT_FLAGS);
  if (args.help) return printHelp(io, USAGE);
  const { values } = args;
  if (!values.model) throw new CliError('--model DIR is required', 2);
  const { r, targets: targetModules } = values;
  const alpha = values.alpha ?? 2 * r;
  const seed = values.seed ?? Math.floor(Math.random() * 2 ** 32);
  const modelDir = resolve(io.cwd, values.model);
  const { config } = await openModel(filesFromDir(modelDir));
  const out = await outputDir(io, values.out, [modelDir]);
  const adapter = initLoraAdapter(config, { r, alpha, targetModules, dropout: 0, baseModel: modelDir }, seededRandom(seed));
  for (const [file, bytes] of Object.entries(writePeftAdapter(adapter))) await writeFile(join(out, file), bytes);
  const parameters = [...adapter.weights.values()].reduce((n, w) => n + w.A.length + w.B.length, 0);
  io.stdout(`${JSON.stringify({ out, r, alpha, targetModules, modules: adapter.weights.size, parameters, seed })}\n`);
  return 0;
}

async function merge(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, MERGE_FLAGS);
  if (args.help) return printHelp(io, USAGE);
  const { values } = args;
  if (!values.model) throw new CliError('--model DIR is required', 2);
  if (!values.lora) throw new CliError('--lora DIR is required', 2);
  const modelDir = resolve(io.cwd, values.model);
  const loraDir = resolve(io.cwd, values.lora);
  const base = filesFromDir(modelDir);
  const { config, tensors } = await openModel(base);
  const adapter = await readPeftAdapter(filesFromDir(loraDir), config);
  const out = await outputDir(io, values.out, [modelDir, loraDir]);
  const weightFiles = new Set([...tensors.tensors.values()].map((t) => t.file));
  const merged = await mergeLora(tensors, adapter, (file, bytes) => writeFile(join(out, file), bytes));
  // Config, tokenizer and shard index go along unchanged: the merged weights keep the base's layout.
  const copied: string[] = [];
  for (const file of await readdir(modelDir, { recursive: true })) {
    if (weightFiles.has(file) || file === ADAPTER_WEIGHTS || !(await stat(join(modelDir, file))).isFile()) continue;
    await mkdir(join(out, file, '..'), { recursive: true });
    await copyFile(join(modelDir, file), join(out, file));
    copied.push(file);
  }
  const adaptable = linearModules(config).length;
  io.stdout(`${JSON.stringify({ out, merged: merged.length, of: adaptable, weightFiles: [...weightFiles], copied })}\n`);
  return 0;
}

export async function adapterCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
    io.stdout(USAGE);
    return sub ? 0 : 2;
  }
  if (sub === 'init') return init(rest, io);
  if (sub === 'merge') return merge(rest, io);
  throw new CliError(`unknown subcommand "${sub}": use init or merge`, 2);
}
