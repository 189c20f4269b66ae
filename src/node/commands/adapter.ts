/**
 * `baton adapter init | merge`: a fresh LoRA adapter in PEFT's layout for a model directory (what a
 * GRPO run starts from), and an adapter folded into its base model (for servers that load no
 * adapters). Neither needs a GPU.
 */
import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { seededRandom } from '../../core/random.ts';
import { filesFromDir } from '../../engine/model/files-node.ts';
import { ADAPTER_WEIGHTS, initLoraAdapter, linearModules, mergeLora, openModel, readPeftAdapter, writePeftAdapter } from '../../engine/model/index.ts';
import { CliError, intFlag, numberFlag, parseFlags, type CliIo } from '../io.ts';
import { PROJECTIONS, parseTargets } from '../lora-targets.ts';
import { outputDir } from '../out-dir.ts';

const USAGE = `usage: baton adapter init --model DIR --out DIR [--r 8] [--alpha 16] [--targets q_proj,v_proj,...] [--seed S]
       baton adapter merge --model DIR --lora DIR --out DIR

init    writes OUT/adapter_config.json and OUT/adapter_model.safetensors: a new LoRA adapter as PEFT
        makes one (A uniform in +-1/sqrt(in), B = 0, so the adapted model starts equal to the base).
        --targets takes ${PROJECTIONS.join(', ')} or "all" (default q_proj,v_proj, as PEFT's default for Qwen and Llama).
        --seed fixes A's draws (default: a random seed, printed).
merge   writes OUT as a model directory: the base's files with every adapted weight W + (alpha/r) B A,
        in the base's dtype and file layout.
Both print one JSON line describing what they wrote.
`;

async function init(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, {
    model: { type: 'string' },
    out: { type: 'string' },
    r: { type: 'string' },
    alpha: { type: 'string' },
    targets: { type: 'string' },
    seed: { type: 'string' },
  });
  if (!values.model) throw new CliError('--model DIR is required', 2);
  const r = intFlag('r', values.r, 8)!;
  if (r <= 0) throw new CliError(`--r must be a positive integer, got ${r}`, 2);
  const alpha = numberFlag('alpha', values.alpha, 2 * r)!;
  if (alpha <= 0) throw new CliError(`--alpha must be positive, got ${alpha}`, 2);
  const targetModules = parseTargets(values.targets);
  const seed = intFlag('seed', values.seed, Math.floor(Math.random() * 2 ** 32))!;
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
  const { values } = parseFlags(argv, { model: { type: 'string' }, lora: { type: 'string' }, out: { type: 'string' } });
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
