/**
 * `baton init-model`: a small randomly initialised Conductor to train from scratch (no pretrained
 * weights needed): a Hugging Face model directory with Qwen's tokenizer cut to --vocab ids. No GPU.
 */
import type { Architecture } from '../../engine/model/index.ts';
import { choice, CliError, int, parseFlags, positiveInteger, printHelp, text, toggle, type CliIo } from '../cli/index.ts';
import { writeRandomConductor, type RandomConductorShape } from '../models/index.ts';
import { outputDir } from '../stores/index.ts';

const ARCHITECTURES: readonly Architecture[] = ['qwen2', 'qwen3', 'llama'];
/** Qwen's 256 byte tokens and 26 special tokens are always kept. */
const MIN_VOCAB = 282;

const FLAGS = {
  out: text({ arg: 'DIR', help: 'a new or empty directory' }),
  arch: choice(ARCHITECTURES, { arg: 'A', help: ARCHITECTURES.join(' | '), default: 'qwen3' }),
  hidden: int({ arg: 'N', help: 'hidden size', default: 64, check: positiveInteger }),
  layers: int({ arg: 'N', help: 'transformer layers', default: 2, check: positiveInteger }),
  heads: int({ arg: 'N', help: 'attention heads', default: 4, check: positiveInteger }),
  'kv-heads': int({ arg: 'N', help: 'key/value heads', default: 2, check: positiveInteger }),
  intermediate: int({ arg: 'N', help: 'MLP width (default 2 x hidden)', check: positiveInteger }),
  vocab: int({
    arg: 'N',
    help: `token ids in all, at least ${MIN_VOCAB}`,
    default: 1536,
    check: (n) => positiveInteger(n) ?? (n < MIN_VOCAB ? `must be at least ${MIN_VOCAB} (Qwen's byte tokens and special tokens), got ${n}` : undefined),
  }),
  dtype: choice(['bf16', 'f32'], { arg: 'D', help: 'bf16 | f32', default: 'bf16' }),
  untied: toggle({ help: 'separate input and output embeddings (tied by default)' }),
  seed: int({ arg: 'S', help: 'seeds the weights (default: a random seed, printed)' }),
};

const HELP = {
  usage: `usage: baton init-model --out DIR [options]

Writes a small, randomly initialised Conductor to DIR (config.json, model.safetensors, tokenizer.json,
tokenizer_config.json) for experiments such as \`baton train\`. The tokenizer is Qwen3's cut to its
first --vocab ids (at least ${MIN_VOCAB}; any text still encodes, in more tokens); embeddings are tied
unless --untied. The same options and --seed give the same bytes. Prints one JSON line.
`,
  flags: FLAGS,
};

export async function initModelCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  const { hidden, heads } = values;
  const kvHeads = values['kv-heads'];
  if (hidden % heads !== 0 || (hidden / heads) % 2 !== 0)
    throw new CliError(`--hidden ${hidden} must split into --heads ${heads} heads of an even width (rotary embeddings pair dimensions)`, 2);
  if (heads % kvHeads !== 0) throw new CliError(`--heads ${heads} must be a multiple of --kv-heads ${kvHeads}`, 2);
  const shape: RandomConductorShape = {
    architecture: values.arch,
    hidden,
    intermediate: values.intermediate ?? 2 * hidden,
    layers: values.layers,
    heads,
    kvHeads,
    vocab: values.vocab,
    tied: !values.untied,
    dtype: values.dtype === 'bf16' ? 'BF16' : 'F32',
    seed: values.seed ?? Math.floor(Math.random() * 2 ** 32),
  };
  const out = await outputDir(io, values.out, []);
  await writeRandomConductor(out, shape);
  io.stdout(`${JSON.stringify({ out, ...shape })}\n`);
  return 0;
}
