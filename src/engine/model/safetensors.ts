/**
 * The safetensors format, read and written by hand: an 8-byte little-endian header length, a JSON
 * header { name: { dtype, shape, data_offsets: [start, end] }, __metadata__? }, then the raw data
 * (offsets relative to the end of the header). https://github.com/huggingface/safetensors
 *
 * Reading is split in two so a caller can fetch only the bytes it needs: `headerLength` on the first
 * 8 bytes, `parseHeader` on the header itself, then one range read per tensor for `decodeTensor`.
 */
import { BatonError } from '../../core/errors/index.ts';

export type DType = 'F32' | 'F16' | 'BF16';

export interface TensorInfo {
  name: string;
  dtype: DType;
  shape: number[];
  /** The file holding it, relative to the model directory. */
  file: string;
  /** Absolute byte offset of the data in `file`. */
  offset: number;
  byteLength: number;
}

const BYTES_PER_ELEMENT: Record<DType, number> = { F32: 4, F16: 2, BF16: 2 };

/** Headers above this size are corruption, not a real model (real ones are well under 10 MB). */
const MAX_HEADER_BYTES = 100 * 1024 * 1024;

function corrupt(file: string, message: string, tensor?: string): never {
  throw new BatonError({
    code: 'engine/model-file',
    message: `${file}${tensor ? ` (tensor ${tensor})` : ''}: ${message} The file is damaged or incomplete; download it again.`,
    data: { file, ...(tensor ? { tensor } : {}) },
  });
}

export function elementCount(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** The header's byte length, from the file's first 8 bytes. */
export function headerLength(prefix: Uint8Array, file: string, fileSize?: number): number {
  if (prefix.byteLength < 8) corrupt(file, `only ${prefix.byteLength} bytes, shorter than the 8-byte header length.`);
  const n = new DataView(prefix.buffer, prefix.byteOffset, 8).getBigUint64(0, true);
  if (n < 2n || n > BigInt(MAX_HEADER_BYTES)) corrupt(file, `header length ${n} is not plausible.`);
  const len = Number(n);
  if (fileSize !== undefined && 8 + len > fileSize) {
    corrupt(file, `header of ${len} bytes runs past the end of the ${fileSize}-byte file.`);
  }
  return len;
}

/**
 * The tensors listed in a header (`header` = the JSON bytes after the 8-byte length). Offsets are
 * checked against each other and, when `fileSize` is known, against the file's end.
 */
export function parseHeader(header: Uint8Array, file: string, fileSize?: number): TensorInfo[] {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(header));
  } catch (e) {
    corrupt(file, `header is not valid JSON (${(e as Error).message}).`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) corrupt(file, 'header is not a JSON object.');
  const dataStart = 8 + header.byteLength;
  const infos: TensorInfo[] = [];
  for (const [name, entry] of Object.entries(json as Record<string, unknown>)) {
    if (name === '__metadata__') continue;
    const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof e !== 'object' || e === null) corrupt(file, 'entry is not an object.', name);
    if (e.dtype !== 'F32' && e.dtype !== 'F16' && e.dtype !== 'BF16') {
      throw new BatonError({
        code: 'engine/unsupported',
        message: `${file} (tensor ${name}): dtype ${String(e.dtype)} is not supported; use F32, F16 or BF16 weights (not a quantised checkpoint).`,
        data: { file, tensor: name, dtype: e.dtype },
      });
    }
    const shape = e.shape;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) corrupt(file, 'bad shape.', name);
    const offsets = e.data_offsets;
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isInteger(o) && o >= 0) || offsets[1] < offsets[0]) {
      corrupt(file, 'bad data_offsets.', name);
    }
    const byteLength = offsets[1] - offsets[0];
    const expected = elementCount(shape) * BYTES_PER_ELEMENT[e.dtype];
    if (byteLength !== expected) corrupt(file, `holds ${byteLength} bytes but shape [${shape}] of ${e.dtype} needs ${expected}.`, name);
    const offset = dataStart + offsets[0];
    if (fileSize !== undefined && offset + byteLength > fileSize) {
      corrupt(file, `data ends at byte ${offset + byteLength}, past the end of the ${fileSize}-byte file.`, name);
    }
    infos.push({ name, dtype: e.dtype, shape: [...shape], file, offset, byteLength });
  }
  return infos;
}

/** One tensor's raw bytes as float32 values. */
export function decodeTensor(bytes: Uint8Array, info: TensorInfo): Float32Array {
  if (bytes.byteLength !== info.byteLength) {
    corrupt(info.file, `read ${bytes.byteLength} bytes, expected ${info.byteLength}.`, info.name);
  }
  const n = elementCount(info.shape);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(n);
  if (info.dtype === 'F32') {
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(4 * i, true);
  } else if (info.dtype === 'BF16') {
    // bf16 is the top half of an f32.
    const u32 = new Uint32Array(out.buffer);
    for (let i = 0; i < n; i++) u32[i] = view.getUint16(2 * i, true) << 16;
  } else {
    for (let i = 0; i < n; i++) out[i] = f16ToF32(view.getUint16(2 * i, true));
  }
  return out;
}

export function f16ToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** Nearest f16 bit pattern (ties to even), with overflow to infinity and subnormals. */
export function f32ToF16(x: number): number {
  f32Scratch[0] = x;
  const bits = u32Scratch[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rest = m & ((1 << shift) - 1);
    let r = m >>> shift;
    if (rest > half || (rest === half && r & 1)) r++;
    return sign | r;
  }
  let r = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && r & 1)) r++; // may carry into the exponent, which is right
  return sign | r;
}

/** Nearest bf16 bit pattern (ties to even). */
export function f32ToBf16(x: number): number {
  f32Scratch[0] = x;
  const bits = u32Scratch[0];
  if ((bits & 0x7f800000) === 0x7f800000 && bits & 0x7fffff) return (bits >>> 16) | 0x40;
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

export interface TensorToWrite {
  name: string;
  dtype: DType;
  shape: number[];
  data: Float32Array;
}

/** A complete safetensors file; values are rounded to `dtype`. */
export function writeSafetensors(tensors: readonly TensorToWrite[], metadata?: Record<string, string>): Uint8Array<ArrayBuffer> {
  const header: Record<string, unknown> = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const t of tensors) {
    if (t.data.length !== elementCount(t.shape)) {
      throw new BatonError({
        code: 'data/invalid',
        message: `tensor ${t.name}: ${t.data.length} values do not fill shape [${t.shape}].`,
      });
    }
    const byteLength = t.data.length * BYTES_PER_ELEMENT[t.dtype];
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + byteLength] };
    offset += byteLength;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  // Space padding keeps the data 8-byte aligned, as the reference writer does.
  const headerBytes = new Uint8Array(json.byteLength + ((8 - (json.byteLength % 8)) % 8)).fill(0x20);
  headerBytes.set(json);
  const out = new Uint8Array(8 + headerBytes.byteLength + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headerBytes.byteLength), true);
  out.set(headerBytes, 8);
  let p = 8 + headerBytes.byteLength;
  for (const t of tensors) {
    for (let i = 0; i < t.data.length; i++) {
      if (t.dtype === 'F32') view.setFloat32(p + 4 * i, t.data[i], true);
      else view.setUint16(p + 2 * i, t.dtype === 'F16' ? f32ToF16(t.data[i]) : f32ToBf16(t.data[i]), true);
    }
    p += t.data.length * BYTES_PER_ELEMENT[t.dtype];
  }
  return out;
}
