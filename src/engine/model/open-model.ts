/**
 * A model directory opened: config parsed, weight headers read and checked against the config,
 * no weight data loaded yet. generation_config.json, where present, adds its end-of-sequence ids
 * (instruct models often stop on more tokens than config.json lists).
 */
import { BatonError } from '../../core/errors/index.ts';
import { parseModelConfig, type ModelConfig } from './config.ts';
import { readJson, type ModelFiles } from './files.ts';
import { openTensorSource, type TensorSource } from './tensor-source.ts';
import { expectedShapes } from './weight-names.ts';

export interface OpenedModel {
  config: ModelConfig;
  tensors: TensorSource;
}

async function generationEosIds(files: ModelFiles): Promise<number[]> {
  if ((await files.size('generation_config.json')) === undefined) return [];
  const eos = ((await readJson(files, 'generation_config.json')) as { eos_token_id?: unknown } | null)?.eos_token_id;
  return (Array.isArray(eos) ? eos : [eos]).filter((id): id is number => Number.isInteger(id));
}

export async function openModel(files: ModelFiles): Promise<OpenedModel> {
  const parsed = parseModelConfig(await readJson(files, 'config.json'));
  const config = { ...parsed, eosTokenIds: [...new Set([...parsed.eosTokenIds, ...(await generationEosIds(files))])] };
  const tensors = await openTensorSource(files);
  const searched = [...new Set([...tensors.tensors.values()].map((t) => t.file))];
  for (const [name, shape] of expectedShapes(config)) {
    const info = tensors.tensors.get(name);
    if (!info) {
      throw new BatonError({
        code: 'engine/model-file',
        message: `tensor ${name} is missing from ${searched.join(', ')} in ${files.name}; the weights do not match config.json.`,
        data: { tensor: name, files: searched, source: files.name },
      });
    }
    if (info.shape.join(',') !== shape.join(',')) {
      throw new BatonError({
        code: 'engine/model-file',
        message: `tensor ${name} in ${info.file} has shape [${info.shape}], but config.json implies [${shape}].`,
        data: { tensor: name, file: info.file, shape: info.shape, expected: shape },
      });
    }
  }
  return { config, tensors };
}
