import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import {
  decodeTensor,
  f16ToF32,
  f32ToBf16,
  f32ToF16,
  headerLength,
  parseHeader,
  writeSafetensors,
  type DType,
  type TensorInfo,
} from '../../../../src/engine/model/safetensors.ts';
import { seededRandom } from '../../../../src/core/random.ts';

/** Parses a whole file held in memory. */
function parseFile(bytes: Uint8Array, file = 'model.safetensors'): TensorInfo[] {
  const len = headerLength(bytes.subarray(0, 8), file, bytes.byteLength);
  return parseHeader(bytes.subarray(8, 8 + len), file, bytes.byteLength);
}

function readAll(bytes: Uint8Array): Map<string, Float32Array> {
  return new Map(parseFile(bytes).map((i) => [i.name, decodeTensor(bytes.subarray(i.offset, i.offset + i.byteLength), i)]));
}

/** A file whose header is the given JSON text and whose data is `dataBytes` long. */
function rawFile(header: string, dataBytes: number): Uint8Array {
  const h = new TextEncoder().encode(header);
  const out = new Uint8Array(8 + h.byteLength + dataBytes);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.byteLength), true);
  out.set(h, 8);
  return out;
}

function thrown(f: () => unknown): BatonError {
  try {
    f();
  } catch (e) {
    if (e instanceof BatonError) return e;
    throw e;
  }
  throw new Error('expected a BatonError');
}

describe('safetensors round trip', () => {
  const random = seededRandom(7);
  const values = new Float32Array(6 * 5).map(() => (random() - 0.5) * 8);

  it('keeps F32 exactly, with shapes, names and 8-byte aligned data', () => {
    const bytes = writeSafetensors(
      [
        { name: 'a.weight', dtype: 'F32', shape: [6, 5], data: values },
        { name: 'b', dtype: 'F32', shape: [3], data: new Float32Array([1.5, -2, 3.25]) },
      ],
      { format: 'pt' },
    );
    const infos = parseFile(bytes);
    expect(infos.map((i) => [i.name, i.dtype, i.shape])).toEqual([
      ['a.weight', 'F32', [6, 5]],
      ['b', 'F32', [3]],
    ]);
    expect(infos[0].offset % 8).toBe(0);
    const back = readAll(bytes);
    expect(back.get('a.weight')).toEqual(values);
    expect([...back.get('b')!]).toEqual([1.5, -2, 3.25]);
  });

  it.each([
    ['F16', 2 ** -11],
    ['BF16', 2 ** -8],
  ] as [DType, number][])('keeps %s within half an ulp', (dtype, halfUlp) => {
    const back = readAll(writeSafetensors([{ name: 'w', dtype, shape: [6, 5], data: values }])).get('w')!;
    back.forEach((v, i) => expect(Math.abs(v - values[i])).toBeLessThanOrEqual(Math.abs(values[i]) * halfUlp));
    expect(back).not.toEqual(values); // really rounded, not passed through
  });

  it('stores exactly representable values exactly, subnormals included', () => {
    const exact = new Float32Array([0, -0.5, 2, 1 / 1024, 65504, 2 ** -24, -(2 ** -20)]);
    expect(readAll(writeSafetensors([{ name: 'h', dtype: 'F16', shape: [7], data: exact }])).get('h')).toEqual(exact);
  });
});

describe('f16 and bf16 conversion', () => {
  it('rounds ties to even and overflows to infinity', () => {
    expect(f16ToF32(f32ToF16(1 + 2 ** -11))).toBe(1);
    expect(f16ToF32(f32ToF16(1 + 3 * 2 ** -11))).toBe(1 + 2 ** -9);
    expect(f16ToF32(f32ToF16(70000))).toBe(Infinity);
    expect(f16ToF32(f32ToF16(-70000))).toBe(-Infinity);
    expect(f16ToF32(0x3c00)).toBe(1);
    expect(f16ToF32(0xc000)).toBe(-2);
    expect(Number.isNaN(f16ToF32(f32ToF16(NaN)))).toBe(true);
  });

  it('bf16 keeps the top 16 bits, rounded to even', () => {
    expect(f32ToBf16(1)).toBe(0x3f80);
    expect(f32ToBf16(-2)).toBe(0xc000);
    expect(f32ToBf16(1 + 2 ** -8)).toBe(0x3f80); // tie, even stays
    expect(f32ToBf16(1 + 3 * 2 ** -8)).toBe(0x3f82); // tie, rounds up to even
  });
});

describe('corrupt and truncated files', () => {
  const good = writeSafetensors([
    { name: 'x.weight', dtype: 'F32', shape: [4, 4], data: new Float32Array(16).fill(0.25) },
    { name: 'y.weight', dtype: 'BF16', shape: [8], data: new Float32Array(8).fill(-1) },
  ]);

  it('names the file when it is shorter than the length prefix', () => {
    const e = thrown(() => headerLength(good.subarray(0, 5), 'model-00002-of-00002.safetensors'));
    expect(e.code).toBe('engine/model-file');
    expect(e.message).toContain('model-00002-of-00002.safetensors');
  });

  it('rejects a header length past the end of the file', () => {
    const e = thrown(() => headerLength(good.subarray(0, 8), 'model.safetensors', 40));
    expect(e.message).toMatch(/model\.safetensors.*past the end/);
  });

  it('rejects a header that is not JSON', () => {
    const e = thrown(() => parseFile(rawFile('{"x.weight": {"dtype": "F3', 0)));
    expect(e.message).toMatch(/not valid JSON/);
  });

  it('names the tensor whose data runs past the end of a truncated file', () => {
    const cut = good.subarray(0, good.byteLength - 4);
    const len = headerLength(cut.subarray(0, 8), 'model.safetensors', cut.byteLength);
    const e = thrown(() => parseHeader(cut.subarray(8, 8 + len), 'model.safetensors', cut.byteLength));
    expect(e.code).toBe('engine/model-file');
    expect(e.message).toContain('model.safetensors (tensor y.weight)');
    expect(e.data).toEqual({ file: 'model.safetensors', tensor: 'y.weight' });
  });

  it('names the tensor whose offsets disagree with its shape', () => {
    const file = rawFile('{"q.bias": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}', 8);
    expect(thrown(() => parseFile(file)).message).toMatch(/tensor q\.bias.*needs 12/);
  });

  it('rejects a dtype the engine cannot use, naming tensor and dtype', () => {
    const file = rawFile('{"ids": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}}', 8);
    const e = thrown(() => parseFile(file));
    expect(e.code).toBe('engine/unsupported');
    expect(e.message).toMatch(/ids.*I64/);
  });

  it('rejects data of the wrong length when decoding', () => {
    const info = parseFile(good)[0];
    expect(thrown(() => decodeTensor(good.subarray(info.offset, info.offset + 10), info)).message).toMatch(/x\.weight.*read 10 bytes/);
  });
});
