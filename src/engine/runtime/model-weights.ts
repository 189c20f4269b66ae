/**
 * All weights of a model on the GPU, tensor by tensor from a TensorSource (each read, uploaded and
 * dropped before the next, so host memory holds one tensor at a time). Storage dtype f32, or f16
 * where the device has shader-f16; with int4, the projection matrices (q/k/v/o/gate/up/down, and
 * the LM head unless told otherwise, and with it a tied embedding) are quantised at load
 * (quant/int4.ts), the rest stay float, as does any matrix whose rows are not a whole number of int4 groups.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import type { Dtype } from '../kernels/index.ts';
import { weightNames, type LayerWeightNames, type ModelConfig, type TensorSource } from '../model/index.ts';
import { int4Fits } from '../quant/index.ts';
import { destroyTensor, tensorBytes, uploadInt4Tensor, uploadTensor, type GpuTensor } from './gpu-tensor.ts';

/** How the weights are stored: a float dtype throughout, or int4 projections beside float norms and embedding. */
export type WeightFormat = Dtype | 'int4';

const PROJECTIONS = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;

type LayerWeights = { [K in keyof LayerWeightNames]-?: undefined extends LayerWeightNames[K] ? GpuTensor | undefined : GpuTensor };

export interface ModelWeights {
  readonly format: WeightFormat;
  /** dtype of the float tensors (and of the int4 scales). */
  readonly dtype: Dtype;
  readonly embed: GpuTensor; // (V, C)
  readonly layers: readonly LayerWeights[];
  readonly norm: GpuTensor; // (C)
  /** The embedding itself when the embeddings are tied. */
  readonly lmHead: GpuTensor; // (V, C)
  /** Bytes of weights on the GPU. */
  readonly bytes: number;
}

interface LoadWeightsOptions {
  /** dtype of the float tensors and of int4 scales. */
  dtype: Dtype;
  /** Store the projection matrices as int4. */
  int4?: boolean;
  /** With int4, quantise the LM head too (default true; a tied head is the embedding, which then is int4 too). */
  int4Head?: boolean;
  /** Largest buffer a tensor is stored in before it is split in row chunks; defaults to the binding limit. */
  maxBindingBytes?: number;
  onProgress?(loaded: number, total: number): void;
}

function checkDtype(device: EngineDevice, dtype: Dtype): void {
  if (dtype === 'f16' && !device.caps.shaderF16) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `This GPU (${device.caps.adapter.description || device.caps.adapter.architecture || 'unknown'}) lacks shader-f16; load the weights as f32.`,
      data: { dtype },
    });
  }
}

export async function loadModelWeights(device: EngineDevice, source: TensorSource, config: ModelConfig, options: LoadWeightsOptions): Promise<ModelWeights> {
  checkDtype(device, options.dtype);
  const names = weightNames(config);
  const fits = (name: string) => {
    const shape = source.tensors.get(name)?.shape;
    return shape?.length === 2 && int4Fits(shape[1]);
  };
  const int4 = new Set(options.int4 ? names.layers.flatMap((l) => PROJECTIONS.map((p) => l[p])).filter(fits) : []);
  // A tied head is the embedding itself: then the embedding is stored as int4, serving both.
  if (options.int4 && (options.int4Head ?? true) && fits(names.lmHead)) int4.add(names.lmHead);

  const upload = (name: string) =>
    int4.has(name)
      ? uploadInt4Tensor(device, source, name, options.dtype, options.maxBindingBytes)
      : uploadTensor(device, source, name, options.dtype, options.maxBindingBytes);
  const loaded = new Map<string, GpuTensor>();
  const unique = new Set([names.embed, names.norm, names.lmHead, ...names.layers.flatMap((l) => Object.values(l) as string[])]);
  try {
    for (const name of unique) {
      loaded.set(name, await upload(name));
      options.onProgress?.(loaded.size, unique.size);
    }
  } catch (e) {
    for (const t of loaded.values()) destroyTensor(device, t);
    throw e;
  }
  const get = (name: string) => loaded.get(name)!;
  const layers = names.layers.map((l) => {
    const out: Record<string, GpuTensor | undefined> = {};
    for (const [key, name] of Object.entries(l)) out[key] = name === undefined ? undefined : get(name as string);
    return out as LayerWeights;
  });
  let bytes = 0;
  for (const t of loaded.values()) bytes += tensorBytes(t);
  return {
    format: options.int4 ? 'int4' : options.dtype,
    dtype: options.dtype,
    embed: get(names.embed),
    layers,
    norm: get(names.norm),
    lmHead: get(names.lmHead),
    bytes,
  };
}

export function destroyModelWeights(device: EngineDevice, w: ModelWeights): void {
  const all = new Set([w.embed, w.norm, w.lmHead, ...w.layers.flatMap((l) => Object.values(l).filter((t): t is GpuTensor => t !== undefined))]);
  for (const t of all) destroyTensor(device, t);
}
