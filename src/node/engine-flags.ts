/**
 * The flags every command that loads Baton's engine shares (generate, logprobs; training next): the
 * model directory, an optional LoRA adapter, the weight storage. One parser, so they read and fail alike.
 */
import { resolve } from 'node:path';
import { CliError } from './io.ts';
import type { NodeModelRef } from './local-models.ts';

/** parseFlags options for the shared flags. */
export const ENGINE_FLAGS = {
  model: { type: 'string' },
  lora: { type: 'string' },
  weights: { type: 'string' },
} as const;

/** Their lines of a command's --help, aligned with options whose description starts at column 25. */
export const ENGINE_FLAGS_HELP = `  --model DIR            Hugging Face model directory (config.json, safetensors, tokenizer)
  --lora DIR             PEFT LoRA adapter directory, applied beside the base weights
  --weights W            weight storage: f32, f16 (needs shader-f16) or int4 projections (default: f16 where available, else f32)`;

/** The model the flags name, its directories resolved against the working directory. */
export function parseEngineFlags(values: { model?: string; lora?: string; weights?: string }, cwd: string): NodeModelRef {
  if (!values.model?.trim()) throw new CliError('--model DIR is required', 2);
  if (values.lora !== undefined && !values.lora.trim()) throw new CliError('--lora needs the adapter directory', 2);
  const weights = values.weights;
  if (weights !== undefined && weights !== 'f32' && weights !== 'f16' && weights !== 'int4') {
    throw new CliError(`--weights must be f32, f16 or int4, got "${weights}"`, 2);
  }
  return {
    modelDir: resolve(cwd, values.model),
    ...(values.lora !== undefined ? { loraDir: resolve(cwd, values.lora) } : {}),
    ...(weights !== undefined ? { weights } : {}),
  };
}
