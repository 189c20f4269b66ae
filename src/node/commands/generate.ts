/**
 * `baton generate`: continues a prompt with Baton's engine (WebGPU; Dawn under Node): greedy by
 * default, or seeded sampling with temperature / top-k / top-p, optionally with a LoRA adapter.
 * Prints the completion text, or with --json one JSON line per sample with its token ids and the
 * log-probability of each under the sampling temperature.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ChatMessage } from '../../core/providers/types.ts';
import { CliError, intFlag, numberFlag, parseFlags, type CliIo } from '../io.ts';
import { openNodeModel, weightsFlag } from '../webgpu.ts';

const USAGE = `usage: baton generate --model DIR [--lora DIR] (--prompt TEXT | --messages FILE) [options]

options:
  --model DIR            Hugging Face model directory (config.json, safetensors, tokenizer)
  --lora DIR             PEFT LoRA adapter directory, applied beside the base weights
  --prompt TEXT          one user message, rendered with the model's chat template
  --messages FILE        a JSON array of {role, content}; a final assistant message is continued
  --raw                  tokenise --prompt as it is, without the chat template
  --max-new-tokens N     most tokens to generate (default 128)
  --temperature T        0 is greedy (default); above 0 samples
  --top-k K              sample among the K most likely tokens (default: all)
  --top-p P              sample within the smallest set of probability >= P (default 1)
  --seed S               sampling seed (default 0); sample i of --n uses S + i
  --n G                  number of samples (default 1)
  --weights W            weight storage: f32, or f16 where the GPU has shader-f16
  --json                 one JSON line per sample: {index, text, tokens, logprobs, finishReason}
`;

function parseMessages(text: string, file: string): ChatMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not valid JSON (${(e as Error).message})`, 2);
  }
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((m) => m && ['system', 'user', 'assistant'].includes(m.role) && typeof m.content === 'string');
  if (!ok) throw new CliError(`${file}: expected a non-empty JSON array of {"role": "system"|"user"|"assistant", "content": "..."}`, 2);
  return value as ChatMessage[];
}

export async function generateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, {
    model: { type: 'string' },
    lora: { type: 'string' },
    prompt: { type: 'string' },
    messages: { type: 'string' },
    raw: { type: 'boolean' },
    'max-new-tokens': { type: 'string' },
    temperature: { type: 'string' },
    'top-k': { type: 'string' },
    'top-p': { type: 'string' },
    seed: { type: 'string' },
    n: { type: 'string' },
    weights: { type: 'string' },
    constrain: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (values.constrain !== undefined) throw new CliError('--constrain is not yet supported by the engine.', 2);
  if (!values.model) throw new CliError('--model DIR is required', 2);
  if ((values.prompt === undefined) === (values.messages === undefined)) throw new CliError('give exactly one of --prompt TEXT and --messages FILE', 2);
  if (values.raw && values.messages !== undefined) throw new CliError('--raw applies to --prompt only', 2);
  const weights = weightsFlag(values.weights);
  const maxNewTokens = intFlag('max-new-tokens', values['max-new-tokens'], 128)!;
  const temperature = numberFlag('temperature', values.temperature, 0)!;
  const topK = intFlag('top-k', values['top-k'], 0)!;
  const topP = numberFlag('top-p', values['top-p'], 1)!;
  const seed = intFlag('seed', values.seed, 0)!;
  const n = intFlag('n', values.n, 1)!;
  if (maxNewTokens < 1) throw new CliError(`--max-new-tokens must be at least 1, got ${maxNewTokens}`, 2);
  if (temperature < 0) throw new CliError(`--temperature must be 0 or more, got ${temperature}`, 2);
  if (topK < 0) throw new CliError(`--top-k must be 0 or more, got ${topK}`, 2);
  if (!(topP > 0 && topP <= 1)) throw new CliError(`--top-p must be in (0, 1], got ${topP}`, 2);
  if (n < 1) throw new CliError(`--n must be at least 1, got ${n}`, 2);
  const messages = values.messages === undefined ? undefined : parseMessages(await readFile(resolve(io.cwd, values.messages), 'utf8'), values.messages);

  const loaded = await openNodeModel({
    modelDir: resolve(io.cwd, values.model),
    ...(values.lora ? { loraDir: resolve(io.cwd, values.lora) } : {}),
    ...(weights ? { weights } : {}),
    withTokenizer: true,
  });
  try {
    const tokenizer = loaded.tokenizer!;
    const prompt = values.raw
      ? tokenizer.encode(values.prompt!)
      : tokenizer.encodeChat(messages ?? [{ role: 'user', content: values.prompt! }], {
          continueFinal: messages?.[messages.length - 1]?.role === 'assistant',
        });
    const stopTokens = [...new Set([...loaded.model.config.eosTokenIds, ...(tokenizer.eosTokenId === undefined ? [] : [tokenizer.eosTokenId])])];
    for (let index = 0; index < n; index++) {
      const g = await loaded.model.generate(prompt, { maxNewTokens, stopTokens, sampling: { temperature, topK, topP, seed: seed + index } });
      const text = tokenizer.decode(g.tokens, { skipSpecialTokens: true });
      if (values.json) {
        io.stdout(`${JSON.stringify({ index, text, tokens: g.tokens, logprobs: g.logprobs, finishReason: g.finishReason })}\n`);
      } else {
        io.stdout(n > 1 ? `--- sample ${index}\n${text}\n` : `${text}\n`);
      }
    }
    return 0;
  } finally {
    loaded.close();
  }
}
