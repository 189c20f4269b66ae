/**
 * The web-llm models this GPU can run as a Conductor, picked from web-llm's prebuilt list.
 * f16 builds (q4f16_1) need WebGPU's shader-f16 feature: where it exists they are offered (smaller and
 * faster), elsewhere only the f32 builds (q4f32_1). web-llm asks the GPU for 1 GiB storage-buffer
 * bindings and falls back to 128 MiB; below 1 GiB only its "low resource" builds fit.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import { BatonError } from '../../../core/errors/index.ts';
import { CONDUCTOR_MODELS, type ConductorModelFamily } from './conductor-models.ts';

const MiB = 2 ** 20;
/** What web-llm requests of maxStorageBufferBindingSize, and the least it settles for. */
const FULL_BINDING_BYTES = 1024 * MiB;
const MIN_BINDING_BYTES = 128 * MiB;

export interface WebllmCaps {
  shaderF16: boolean;
  /** The adapter's limit; unknown means "assume a desktop GPU". */
  maxStorageBufferBindingSize?: number;
}

export type WebllmPrecision = 'f16' | 'f32';

export interface WebllmModelChoice {
  /** web-llm's model_id, e.g. "Qwen2.5-7B-Instruct-q4f16_1-MLC". */
  modelId: string;
  label: string;
  precision: WebllmPrecision;
  /** web-llm's estimate of the GPU memory the model needs. */
  vramMB: number;
  contextWindow?: number;
  /** Whether the model thinks in <think> by default (Baton turns that off). */
  thinks: boolean;
  /** The record as web-llm lists it: the engine's appConfig holds exactly this one. */
  record: ModelRecord;
}

const QUANT: Record<WebllmPrecision, string> = { f16: 'q4f16_1', f32: 'q4f32_1' };

function choiceOf(family: ConductorModelFamily, precision: WebllmPrecision, record: ModelRecord): WebllmModelChoice {
  const vramMB = record.vram_required_MB ?? 0;
  const contextWindow = record.overrides?.context_window_size;
  return {
    modelId: record.model_id,
    label: `${family.label} \u00b7 4-bit weights, ${precision} \u00b7 about ${(vramMB / 1024).toFixed(1)} GB of GPU memory`,
    precision,
    vramMB,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    thinks: family.thinks,
    record: structuredClone(record),
  };
}

function fitsBindingLimit(record: ModelRecord, limit: number): boolean {
  if (record.buffer_size_required_bytes !== undefined && record.buffer_size_required_bytes > limit) return false;
  return limit >= FULL_BINDING_BYTES || record.low_resource_required === true;
}

/**
 * The Conductor models this GPU can run, in the Conductor page's order. Throws 'engine/unsupported'
 * with the reason when none fits.
 */
export function webllmModelChoices(caps: WebllmCaps, prebuilt: readonly ModelRecord[]): WebllmModelChoice[] {
  const limit = caps.maxStorageBufferBindingSize ?? FULL_BINDING_BYTES;
  if (limit < MIN_BINDING_BYTES) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `This GPU binds at most ${Math.floor(limit / MiB)} MB per storage buffer; web-llm needs 128 MB. Choose Baton's engine or a remote Conductor instead.`,
      data: { maxStorageBufferBindingSize: limit },
    });
  }
  const precision: WebllmPrecision = caps.shaderF16 ? 'f16' : 'f32';
  const features = new Set(caps.shaderF16 ? ['shader-f16'] : []);
  const byId = new Map(prebuilt.map((r) => [r.model_id, r]));
  const listed = CONDUCTOR_MODELS.flatMap((family) => {
    const record = byId.get(`${family.base}-${QUANT[precision]}-MLC`);
    return record ? [{ family, record }] : [];
  });
  if (listed.length === 0) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `The installed web-llm lists none of Baton's Conductor models in ${QUANT[precision]}; update web-llm or choose another Conductor.`,
    });
  }
  const fitting = listed.filter(({ record }) => (record.required_features ?? []).every((f) => features.has(f)) && fitsBindingLimit(record, limit));
  if (fitting.length === 0) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `None of web-llm's Conductor models fits this GPU (storage buffers up to ${Math.floor(limit / MiB)} MB${caps.shaderF16 ? '' : ', no shader-f16'}). Choose Baton's engine or a remote Conductor instead.`,
      data: { maxStorageBufferBindingSize: limit, shaderF16: caps.shaderF16 },
    });
  }
  return fitting.map(({ family, record }) => choiceOf(family, precision, record));
}

/**
 * What web-llm will find on this thread's GPU: the adapter it gets is the one navigator.gpu gives
 * (web-llm asks for high performance). No adapter: 'engine/no-adapter', said in plain words.
 */
export async function webllmCapsOf(gpu: GPU | undefined): Promise<WebllmCaps> {
  const adapter = await gpu?.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
  if (!adapter) {
    throw new BatonError({
      code: 'engine/no-adapter',
      message: gpu
        ? 'This browser has WebGPU but found no usable graphics adapter (it may be blocked, or the drivers too old), so web-llm cannot run in this tab. Update the browser or graphics drivers, or choose a remote Conductor.'
        : 'This browser offers no WebGPU here, so web-llm cannot run in this tab. Recent Chrome and Edge have it; or choose a remote Conductor or random routing.',
    });
  }
  return { shaderF16: adapter.features.has('shader-f16'), maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize };
}
