/**
 * The flags every command that loads Baton's engine shares (generate, logprobs, grpo-step, train): the
 * model directory, an optional LoRA adapter, the weight storage. One table, so they read and fail alike.
 */
import { resolve } from 'node:path';
import type { WeightFormat } from '../../engine/index.ts';
import { choice, CliError, text, type FlagValues } from '../cli/index.ts';
import type { NodeModelRef } from './webgpu.ts';

const WEIGHT_FORMATS: readonly WeightFormat[] = ['f32', 'f16', 'int4'];

export const MODEL_FLAGS = {
  model: text({ arg: 'DIR', help: 'Hugging Face model directory (config.json, safetensors, tokenizer)' }),
  lora: text({
    arg: 'DIR',
    help: 'PEFT LoRA adapter directory, applied beside the base weights',
    check: (dir) => (dir.trim() ? undefined : 'needs the adapter directory'),
  }),
  weights: choice(WEIGHT_FORMATS, {
    arg: 'W',
    said: 'f32, f16 or int4',
    help: 'weight storage: f32, f16 (needs shader-f16) or int4 projections (default: f16 where available, else f32)',
  }),
};

/** The model the flags name, its directories resolved against the working directory. */
export function modelRefOf(values: Partial<FlagValues<typeof MODEL_FLAGS>>, cwd: string): NodeModelRef {
  if (!values.model?.trim()) throw new CliError('--model DIR is required', 2);
  return {
    modelDir: resolve(cwd, values.model),
    ...(values.lora !== undefined ? { loraDir: resolve(cwd, values.lora) } : {}),
    ...(values.weights !== undefined ? { weights: values.weights } : {}),
  };
}
