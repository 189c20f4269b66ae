/**
 * A weight tensor on the GPU, (rows, cols) row-major in the storage dtype, held as one buffer or,
 * when it is larger than one storage binding may be, as row chunks each within the limit (a 0.5B
 * model's embedding, 151936 x 896, is above WebGPU's default 128 MiB). Kernels that read weights
 * run once per chunk (see linear.ts and the embedding step of forward.ts).
 * A projection matrix may instead be stored as int4 (quant/int4.ts): packed levels per chunk with
 * their group scales beside them; `dtype` is then the scales' dtype.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import type { Dtype } from '../kernels/index.ts';
import { f32ToF16, type TensorSource } from '../model/index.ts';
import { INT4_GROUP_SIZE, quantizeInt4 } from '../quant/index.ts';

export interface RowChunk {
  /** (rows, cols) in `dtype`, or (rows, cols / 8) u32 for an int4 tensor. */
  readonly buffer: GPUBuffer;
  /** int4 only: (rows, cols / groupSize) in `dtype`. */
  readonly scales?: GPUBuffer;
  readonly rowStart: number;
  readonly rows: number;
}

export interface GpuTensor {
  readonly name: string;
  readonly rows: number;
  readonly cols: number;
  /** The values' storage dtype, or the scales' for an int4 tensor. */
  readonly dtype: Dtype;
  /** Present when the tensor is stored as int4 groups. */
  readonly int4?: { readonly groupSize: number };
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
  const rowsPerChunk = rowsPerBinding(name, cols * BYTES[dtype], maxBindingBytes);
  const chunks: RowChunk[] = [];
  for (let rowStart = 0; rowStart < rows; rowStart += rowsPerChunk) {
    const n = Math.min(rowsPerChunk, rows - rowStart);
    const label = chunks.length === 0 ? name : `${name}[${rowStart}:]`;
    chunks.push({ buffer: await device.upload(values.subarray(rowStart * cols, (rowStart + n) * cols), label), rowStart, rows: n });
  }
  return { name, rows, cols, dtype, chunks };
}

/**
 * Reads one (rows, cols) f32-readable tensor, quantises it to int4 with scales in `scaleDtype` and
 * uploads it in row chunks (packed levels and scales chunked alike).
 */
export async function uploadInt4Tensor(
  device: EngineDevice,
  source: TensorSource,
  name: string,
  scaleDtype: Dtype,
  maxBindingBytes = device.caps.maxStorageBufferBindingSize,
): Promise<GpuTensor> {
  const info = source.tensors.get(name);
  if (!info || info.shape.length !== 2) {
    throw new BatonError({
      code: 'engine/model-file',
      message: `tensor ${name} is missing or not a matrix; int4 applies to linear-layer weights.`,
      data: { tensor: name },
    });
  }
  const [rows, cols] = info.shape;
  const q = quantizeInt4(await source.read(name), rows, cols, scaleDtype, INT4_GROUP_SIZE);
  const groups = cols / INT4_GROUP_SIZE;
  const rowsPerChunk = rowsPerBinding(name, cols / 2, maxBindingBytes);
  const chunks: RowChunk[] = [];
  try {
    for (let rowStart = 0; rowStart < rows; rowStart += rowsPerChunk) {
      const n = Math.min(rowsPerChunk, rows - rowStart);
      const label = chunks.length === 0 ? name : `${name}[${rowStart}:]`;
      // Each buffer joins `chunks` as soon as it exists, so a failed upload frees everything before it.
      const chunk: { buffer: GPUBuffer; scales?: GPUBuffer; rowStart: number; rows: number } = {
        buffer: await device.upload(q.packed.subarray((rowStart * cols) / 8, ((rowStart + n) * cols) / 8), `${label} int4`),
        rowStart,
        rows: n,
      };
      chunks.push(chunk);
      chunk.scales = await device.upload(q.scales.subarray(rowStart * groups, (rowStart + n) * groups), `${label} scales`);
    }
  } catch (e) {
    destroyTensor(device, { name, rows, cols, dtype: scaleDtype, chunks });
    throw e;
  }
  return { name, rows, cols, dtype: scaleDtype, int4: { groupSize: INT4_GROUP_SIZE }, chunks };
}

function rowsPerBinding(name: string, rowBytes: number, maxBindingBytes: number): number {
  const rows = Math.floor(maxBindingBytes / rowBytes);
  if (rows < 1) {
    throw new BatonError({
      code: 'engine/unsupported',
      message: `tensor ${name}: one row of ${rowBytes} bytes exceeds this GPU's storage binding limit (${maxBindingBytes} bytes); this model is too large for the device.`,
      data: { tensor: name, rowBytes, maxBindingBytes },
    });
  }
  return rows;
}

/** Bytes a tensor holds on the GPU. */
export function tensorBytes(t: GpuTensor): number {
  return t.chunks.reduce((sum, c) => sum + c.buffer.size + (c.scales?.size ?? 0), 0);
}

/** The one buffer of a tensor that is never split (norms, biases: a single row). */
export function wholeBuffer(t: GpuTensor): GPUBuffer {
  if (t.chunks.length !== 1)
    throw new BatonError({ code: 'engine/unsupported', message: `tensor ${t.name} is split in ${t.chunks.length} chunks where one buffer is needed.` });
  return t.chunks[0].buffer;
}

export function destroyTensor(device: EngineDevice, t: GpuTensor): void {
  for (const c of t.chunks) {
    device.free(c.buffer);
    if (c.scales) device.free(c.scales);
  }
}
