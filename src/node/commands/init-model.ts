/**
 * `baton init-model`: a small randomly initialised Conductor to train from scratch (no pretrained
 * weights needed): a Hugging Face model directory with Qwen's tokenizer cut to --vocab ids. No GPU.
 */
import { CliError, intFlag, parseFlags, type CliIo } from '../io.ts';
import { outputDir } from '../out-dir.ts';
import { writeRandomConductor, type RandomConductorShape } from '../random-conductor.ts';
import type { Architecture } from '../../engine/model/index.ts';

const ARCHITECTURES: readonly Architecture[] = ['qwen2', 'qwen3', 'llama'];
/** Qwen's 256 byte tokens and 26 special tokens are always kept. */
const MIN_VOCAB = 282;

const USAGE = `usage: baton init-model --out DIR [--arch qwen3] [--hidden 64] [--layers 2] [--heads 4] [--kv-heads 2]
                        [--intermediate 2*hidden] [--vocab 1536] [--dtype bf16|f32] [--untied] [--seed S]

Writes a small, randomly initialised Conductor to DIR (config.json, model.safetensors, tokenizer.json,
tokenizer_config.json) for experiments such as \`baton train\`. The tokenizer is Qwen3's cut to its
first --vocab ids (at least ${MIN_VOCAB}; any text still encodes, in more tokens); embeddings are tied
unless --untied. The same options and --seed give the same bytes. Prints one JSON line.
`;

export async function initModelCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, {
    out: { type: 'string' },
    arch: { type: 'string' },
    hidden: { type: 'string' },
    layers: { type: 'string' },
    heads: { type: 'string' },
    'kv-heads': { type: 'string' },
    intermediate: { type: 'string' },
    vocab: { type: 'string' },
    dtype: { type: 'string' },
    untied: { type: 'boolean' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const architecture = (values.arch ?? 'qwen3') as Architecture;
  if (!ARCHITECTURES.includes(architecture)) throw new CliError(`--arch must be one of ${ARCHITECTURES.join(', ')}, got "${values.arch}"`, 2);
  const dtype = values.dtype ?? 'bf16';
  if (dtype !== 'bf16' && dtype !== 'f32') throw new CliError(`--dtype must be bf16 or f32, got "${dtype}"`, 2);
  const positive = (flag: string, value: string | undefined, fallback: number) => {
    const n = intFlag(flag, value, fallback)!;
    if (n <= 0) throw new CliError(`--${flag} must be a positive integer, got ${n}`, 2);
    return n;
  };
  const hidden = positive('hidden', values.hidden, 64);
  const heads = positive('heads', values.heads, 4);
  const kvHeads = positive('kv-heads', values['kv-heads'], 2);
  if (hidden % heads !== 0 || (hidden / heads) % 2 !== 0) throw new CliError(`--hidden ${hidden} must split into --heads ${heads} heads of an even width (rotary embeddings pair dimensions)`, 2);
  if (heads % kvHeads !== 0) throw new CliError(`--heads ${heads} must be a multiple of --kv-heads ${kvHeads}`, 2);
  const vocab = positive('vocab', values.vocab, 1536);
  if (vocab < MIN_VOCAB) throw new CliError(`--vocab must be at least ${MIN_VOCAB} (Qwen's byte tokens and special tokens), got ${vocab}`, 2);
  const shape: RandomConductorShape = {
    architecture,
    hidden,
    intermediate: positive('intermediate', values.intermediate, 2 * hidden),
    layers: positive('layers', values.layers, 2),
    heads,
    kvHeads,
    vocab,
    tied: !values.untied,
    dtype: dtype === 'bf16' ? 'BF16' : 'F32',
    seed: intFlag('seed', values.seed, Math.floor(Math.random() * 2 ** 32))!,
  };
  const out = await outputDir(io, values.out, []);
  await writeRandomConductor(out, shape);
  io.stdout(`${JSON.stringify({ out, ...shape })}\n`);
  return 0;
}
