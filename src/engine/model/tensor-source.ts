/**
 * The weights of a model directory, one tensor at a time: reads the safetensors headers (one file, or
 * the shards named by model.safetensors.index.json) and then range-reads each tensor on demand, so a
 * large model is never held in memory twice.
 */
import { BatonError } from '../../core/errors/index.ts';
import { missingFile, readJson, type ModelFiles } from './files.ts';
import { decodeTensor, headerLength, parseHeader, type TensorInfo } from './safetensors.ts';

export interface TensorSource {
  readonly tensors: ReadonlyMap<string, TensorInfo>;
  /** The tensor as float32 values (converted from F16/BF16). */
  read(name: string): Promise<Float32Array>;
  /** The tensor's stored bytes, in its own dtype (`tensors.get(name).dtype`), for direct upload. */
  readRaw(name: string): Promise<Uint8Array>;
}

export const SINGLE_FILE = 'model.safetensors';
export const SHARD_INDEX = 'model.safetensors.index.json';

async function readHeader(files: ModelFiles, file: string): Promise<TensorInfo[]> {
  const size = await files.size(file);
  if (size === undefined) throw missingFile(files, file);
  const len = headerLength(await files.read(file, 0, Math.min(8, size)), file, size);
  return parseHeader(await files.read(file, 8, 8 + len), file, size);
}

async function shardFiles(files: ModelFiles): Promise<{ shards: string[]; weightMap?: Record<string, string> }> {
  if ((await files.size(SHARD_INDEX)) !== undefined) {
    const index = (await readJson(files, SHARD_INDEX)) as { weight_map?: Record<string, string> };
    const weightMap = index?.weight_map;
    if (typeof weightMap !== 'object' || weightMap === null) {
      throw new BatonError({
        code: 'engine/model-file',
        message: `${SHARD_INDEX} in ${files.name} has no "weight_map"; download it again.`,
        data: { file: SHARD_INDEX },
      });
    }
    return { shards: [...new Set(Object.values(weightMap))], weightMap };
  }
  if ((await files.size(SINGLE_FILE)) !== undefined) return { shards: [SINGLE_FILE] };
  throw new BatonError({
    code: 'engine/model-file',
    message: `${files.name} has neither ${SINGLE_FILE} nor ${SHARD_INDEX}; point at a Hugging Face model directory with safetensors weights.`,
    data: { source: files.name },
  });
}

export async function openTensorSource(files: ModelFiles): Promise<TensorSource> {
  const { shards, weightMap } = await shardFiles(files);
  const tensors = new Map<string, TensorInfo>();
  for (const shard of shards) for (const info of await readHeader(files, shard)) tensors.set(info.name, info);
  for (const [name, shard] of Object.entries(weightMap ?? {})) {
    if (tensors.get(name)?.file !== shard) {
      throw new BatonError({
        code: 'engine/model-file',
        message: `${SHARD_INDEX} puts tensor ${name} in ${shard}, but that file does not hold it; the shards do not match the index.`,
        data: { file: shard, tensor: name },
      });
    }
  }

  const infoOf = (name: string): TensorInfo => {
    const info = tensors.get(name);
    if (info) return info;
    throw new BatonError({
      code: 'engine/model-file',
      message: `tensor ${name} is not in ${shards.join(', ')} (${files.name}); the checkpoint does not match its config.`,
      data: { tensor: name, files: shards, source: files.name },
    });
  };
  const readRaw = async (name: string): Promise<Uint8Array> => {
    const info = infoOf(name);
    return files.read(info.file, info.offset, info.offset + info.byteLength);
  };
  return {
    tensors,
    readRaw,
    read: async (name) => decodeTensor(await readRaw(name), infoOf(name)),
  };
}
