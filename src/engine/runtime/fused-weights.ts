/**
 * The inference forward's concatenated projections: per layer, q/k/v as one (Nq + 2 Nkv, C) weight
 * (and their biases as one vector) and gate/up as one (2 I, C) weight, so each is one matmul
 * (forward-fused.ts). They are GPU copies of the model's own tensors, in the same storage (f32, f16
 * or int4 packed levels and scales alike: int4 groups run along a row, so concatenating rows is
 * concatenating their quantised bytes). The separate tensors stay: training reads them, and full
 * fine-tuning updates them in place, after which `refresh` copies them again.
 * A layer whose parts cannot be concatenated (split in row chunks, or a part whose bytes are not a
 * multiple of 4, which buffer copies need) has no fused weights; forward-fused.ts then runs it unfused.
 */
import type { EngineDevice } from '../device/index.ts';
import { destroyTensor, type GpuTensor, type RowChunk } from './gpu-tensor.ts';
import type { ModelWeights } from './model-weights.ts';

export interface FusedLayer {
  readonly qkv: GpuTensor; // (Nq + 2 Nkv, C)
  readonly qkvBias: GpuTensor | undefined; // (Nq + 2 Nkv)
  /** The input norm's weight then qkvBias, one vector (C + Nq + 2 Nkv) for the rope kernel's eight bindings; with no bias, the norm weight. */
  readonly inputNormBias: GpuTensor;
  readonly gateUp: GpuTensor; // (2 I, C)
}

interface Copy {
  readonly src: GPUBuffer;
  readonly dst: GPUBuffer;
  readonly dstOffset: number;
  readonly bytes: number;
}

export class FusedWeights {
  readonly #device: EngineDevice;
  /** Per layer; undefined where the layer runs unfused. */
  readonly layers: readonly (FusedLayer | undefined)[];
  readonly #copies: readonly Copy[];

  private constructor(device: EngineDevice, layers: (FusedLayer | undefined)[], copies: Copy[]) {
    this.#device = device;
    this.layers = layers;
    this.#copies = copies;
  }

  static async build(device: EngineDevice, weights: ModelWeights, maxBindingBytes: number): Promise<FusedWeights> {
    const copies: Copy[] = [];
    let pending: Copy[] = []; // the copies of the layer being built, kept only if the whole layer fuses
    const concat = (name: string, parts: readonly (GpuTensor | undefined)[]): GpuTensor | undefined => {
      if (parts.some((p) => p === undefined)) return undefined;
      const ts = parts as GpuTensor[];
      const [first] = ts;
      const sameKind = ts.every(
        (t) => t.chunks.length === 1 && t.cols === first.cols && t.dtype === first.dtype && t.int4?.groupSize === first.int4?.groupSize,
      );
      if (!sameKind) return undefined;
      const bytesOf = (t: GpuTensor) => storedBytes(t);
      const sizes = ts.map(bytesOf);
      if (sizes.some((s) => s.values % 4 !== 0 || s.scales % 4 !== 0)) return undefined;
      const total = sizes.reduce((a, s) => ({ values: a.values + s.values, scales: a.scales + s.scales }), { values: 0, scales: 0 });
      if (total.values > maxBindingBytes || total.scales > maxBindingBytes) return undefined;
      const buffer = device.createBuffer(total.values, `${name} fused`);
      const scales = first.int4 ? device.createBuffer(total.scales, `${name} fused scales`) : undefined;
      let [valuesAt, scalesAt] = [0, 0];
      ts.forEach((t, i) => {
        const chunk = t.chunks[0];
        pending.push({ src: chunk.buffer, dst: buffer, dstOffset: valuesAt, bytes: sizes[i].values });
        if (scales) pending.push({ src: chunk.scales!, dst: scales, dstOffset: scalesAt, bytes: sizes[i].scales });
        valuesAt += sizes[i].values;
        scalesAt += sizes[i].scales;
      });
      const rows = ts.reduce((a, t) => a + t.rows, 0);
      const chunk: RowChunk = { buffer, rowStart: 0, rows, ...(scales ? { scales } : {}) };
      return { name, rows, cols: first.cols, dtype: first.dtype, ...(first.int4 ? { int4: first.int4 } : {}), chunks: [chunk] };
    };
    /** Biases are (1, N) rows: joined end to end as one (1, sum N) row. */
    const concatBias = (name: string, parts: readonly (GpuTensor | undefined)[]): GpuTensor | undefined | null => {
      if (parts.every((p) => p === undefined)) return undefined;
      const row = concat(
        name,
        parts.map((p) => p && { ...p, rows: p.cols, cols: 1 }),
      );
      return row ? { ...row, rows: 1, cols: row.rows } : null;
    };
    const layers = weights.layers.map((l, i): FusedLayer | undefined => {
      pending = [];
      const qkv = concat(`layer ${i} qkv`, [l.q, l.k, l.v]);
      const gateUp = concat(`layer ${i} gate/up`, [l.gate, l.up]);
      const qkvBias = concatBias(`layer ${i} qkv bias`, [l.qBias, l.kBias, l.vBias]);
      const normBias = qkvBias ? concatBias(`layer ${i} input norm and qkv bias`, [l.inputNorm, l.qBias, l.kBias, l.vBias]) : l.inputNorm;
      if (qkv && gateUp && qkvBias !== null && normBias) {
        copies.push(...pending);
        return { qkv, gateUp, qkvBias, inputNormBias: normBias };
      }
      for (const t of [qkv, gateUp, qkvBias, normBias === l.inputNorm ? undefined : normBias]) if (t) destroyTensor(device, t);
      return undefined;
    });
    const fused = new FusedWeights(device, layers, copies);
    await fused.refresh();
    return fused;
  }

  /** Copies the model's tensors into the fused ones again (after full fine-tuning changed them). */
  async refresh(): Promise<void> {
    if (this.#copies.length === 0) return;
    const batch = this.#device.batch('fuse weights');
    for (const c of this.#copies) batch.copy(c.src, 0, c.dst, c.dstOffset, c.bytes);
    await batch.submit();
  }

  destroy(): void {
    for (const l of this.layers) {
      if (!l) continue;
      for (const t of [l.qkv, l.gateUp, l.qkvBias, l.qkvBias ? l.inputNormBias : undefined]) if (t) destroyTensor(this.#device, t);
    }
  }
}

const BYTES = { f32: 4, f16: 2 } as const;

/** Bytes of a single-chunk tensor's values and int4 scales, without the buffers' rounding up. */
function storedBytes(t: GpuTensor): { values: number; scales: number } {
  if (!t.int4) return { values: t.rows * t.cols * BYTES[t.dtype], scales: 0 };
  return { values: (t.rows * t.cols) / 2, scales: t.rows * (t.cols / t.int4.groupSize) * BYTES[t.dtype] };
}
