/**
 * All weights of a model on the GPU, tensor by tensor from a TensorSource (each read, uploaded and
 * dropped before the next, so host memory holds one tensor at a time). Storage dtype f32, or f16
 * where the device has shader-f16.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import type { Dtype } from '../kernels/index.ts';
import { weightNames, type LayerWeightNames, type ModelConfig, type TensorSource } from '../model/index.ts';
import { destroyTensor, uploadTensor, type GpuTensor } from './gpu-tensor.ts';

export type LayerWeights = { [K in keyof LayerWeightNames]-?: undefined extends LayerWeightNames[K] ? GpuTensor | undefined : GpuTensor };

export interface ModelWeights {
  readonly dtype: Dtype;
  readonly embed: GpuTensor; // (V, C)
  readonly layers: readonly LayerWeights[];
  readonly norm: GpuTensor; // (C)
  /** The embedding itself when the embeddings are tied. */
  readonly lmHead: GpuTensor; // (V, C)
  /** Bytes of weights on the GPU. */
  readonly bytes: number;
}

export interface LoadWeightsOptions {
  dtype: Dtype;
  /** Largest buffer a tensor is stored in before it is split in row chunks; defaults to the binding limit. */
  maxBindingBytes?: number;
  onProgress?(loaded: number, total: number): void;
}

export function checkDtype(device: EngineDevice, dtype: Dtype): void {
  if (dtype === 'f16' && !device.caps.shaderF16) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `This GPU (${device.caps.adapter.description || device.caps.adapter.architecture || 'unknown'}) lacks shader-f16; load the weights as f32.`,
      data: { dtype },
    });
  }
}

export async function loadModelWeights(
  device: EngineDevice,
  source: TensorSource,
  config: ModelConfig,
  options: LoadWeightsOptions,
): Promise<ModelWeights> {
  checkDtype(device, options.dtype);
  const names = weightNames(config);
  const loaded = new Map<string, GpuTensor>();
  const unique = new Set([names.embed, names.norm, names.lmHead, ...names.layers.flatMap((l) => Object.values(l) as string[])]);
  try {
    for (const name of unique) {
      loaded.set(name, await uploadTensor(device, source, name, options.dtype, options.maxBindingBytes));
      options.onProgress?.(loaded.size, unique.size);
    }
  } catch (e) {
    for (const t of loaded.values()) destroyTensor(t);
    throw e;
  }
  const get = (name: string) => loaded.get(name)!;
  const layers = names.layers.map((l) => {
    const out: Record<string, GpuTensor | undefined> = {};
    for (const [key, name] of Object.entries(l)) out[key] = name === undefined ? undefined : get(name as string);
    return out as LayerWeights;
  });
  let bytes = 0;
  for (const t of loaded.values()) for (const c of t.chunks) bytes += c.buffer.size;
  return { dtype: options.dtype, embed: get(names.embed), layers, norm: get(names.norm), lmHead: get(names.lmHead), bytes };
}

export function destroyModelWeights(w: ModelWeights): void {
  const all = new Set([w.embed, w.norm, w.lmHead, ...w.layers.flatMap((l) => Object.values(l).filter((t): t is GpuTensor => t !== undefined))]);
  for (const t of all) destroyTensor(t);
}
