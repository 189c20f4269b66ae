/**
 * A weight tensor on the GPU, (rows, cols) row-major in the storage dtype, held as one buffer or,
 * when it is larger than one storage binding may be, as row chunks each within the limit (a 0.5B
 * model's embedding, 151936 x 896, is above WebGPU's default 128 MiB). Kernels that read weights
 * run once per chunk (see linear.ts and the embedding step of forward.ts).
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import type { Dtype } from '../kernels/index.ts';
import { f32ToF16, type TensorSource } from '../model/index.ts';

export interface RowChunk {
  readonly buffer: GPUBuffer;
  readonly rowStart: number;
  readonly rows: number;
}

export interface GpuTensor {
  readonly name: string;
  readonly rows: number;
  readonly cols: number;
  readonly dtype: Dtype;
  readonly chunks: readonly RowChunk[];
}

const BYTES: Record<Dtype, number> = { f32: 4, f16: 2 };

function toF16(values: Float32Array): Uint16Array {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = f32ToF16(values[i]);
  return out;
}

/** The tensor's values in the storage dtype: f16 files go up as they are, others are converted. */
async function storageValues(source: TensorSource, name: string, dtype: Dtype): Promise<Float32Array | Uint16Array> {
  if (dtype === 'f32') return source.read(name);
  const info = source.tensors.get(name);
  if (info?.dtype === 'F16') {
    const raw = await source.readRaw(name);
    return raw.byteOffset % 2 === 0 ? new Uint16Array(raw.buffer, raw.byteOffset, raw.byteLength / 2) : new Uint16Array(raw.slice().buffer);
  }
  return toF16(await source.read(name));
}

/**
 * Uploads one tensor (read from the source now, released after upload). A 1-D tensor is one row.
 * `maxBindingBytes` is the largest chunk; it defaults to the device's storage binding limit.
 */
export async function uploadTensor(
  device: EngineDevice,
  source: TensorSource,
  name: string,
  dtype: Dtype,
  maxBindingBytes = device.caps.maxStorageBufferBindingSize,
): Promise<GpuTensor> {
  const info = source.tensors.get(name);
  if (!info) throw new BatonError({ code: 'engine/model-file', message: `tensor ${name} is missing from the model's weights.`, data: { tensor: name } });
  const [rows, cols] = info.shape.length === 1 ? [1, info.shape[0]] : [info.shape[0], info.shape.slice(1).reduce((a, b) => a * b, 1)];
  return uploadValues(device, name, await storageValues(source, name, dtype), rows, cols, dtype, maxBindingBytes);
}

/** Uploads values already in the storage dtype as a (rows, cols) tensor, split in row chunks where needed. */
export async function uploadValues(
  device: EngineDevice,
  name: string,
  values: Float32Array | Uint16Array,
  rows: number,
  cols: number,
  dtype: Dtype,
  maxBindingBytes = device.caps.maxStorageBufferBindingSize,
): Promise<GpuTensor> {
  const rowBytes = cols * BYTES[dtype];
  const rowsPerChunk = Math.floor(maxBindingBytes / rowBytes);
  if (rowsPerChunk < 1) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `tensor ${name}: one row of ${rowBytes} bytes exceeds this GPU's storage binding limit (${maxBindingBytes} bytes); this model is too large for the device.`,
      data: { tensor: name, rowBytes, maxBindingBytes },
    });
  }
  const chunks: RowChunk[] = [];
  for (let rowStart = 0; rowStart < rows; rowStart += rowsPerChunk) {
    const n = Math.min(rowsPerChunk, rows - rowStart);
    const label = chunks.length === 0 ? name : `${name}[${rowStart}:]`;
    chunks.push({ buffer: await device.upload(values.subarray(rowStart * cols, (rowStart + n) * cols), label), rowStart, rows: n });
  }
  return { name, rows, cols, dtype, chunks };
}

/** The one buffer of a tensor that is never split (norms, biases: a single row). */
export function wholeBuffer(t: GpuTensor): GPUBuffer {
  if (t.chunks.length !== 1) throw new BatonError({ code: 'engine/unsupported', message: `tensor ${t.name} is split in ${t.chunks.length} chunks where one buffer is needed.` });
  return t.chunks[0].buffer;
}

export function destroyTensor(t: GpuTensor): void {
  for (const c of t.chunks) c.buffer.destroy();
}
