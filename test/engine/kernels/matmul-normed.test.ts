import { describe, it } from 'vitest';
import {
  matmulNormedRef,
  matmulNormedRope,
  matmulNormedRows,
  matmulNormedSplit,
  matmulNormedSwiglu,
  matmulNormedSwigluRef,
  ropeRef,
  ropeTable,
  type MatmulNormedOptions,
} from '../../../src/engine/kernels/index.ts';
import { int4RoundTripRef, quantizeInt4 } from '../../../src/engine/quant/index.ts';
import { checkTensor, randomTensor, storedAs } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice, weightDtypes } from '../../support/webgpu.ts';

// M not a multiple of the row block; N above one workgroup's columns and not a multiple of them.
const M = 5;
const N = 70;
const EPS = 1e-5;

const LAYOUTS = [
  { rowsPerThread: 1, lanes: 1, K: 96, int4: false, vec4: true },
  { rowsPerThread: 3, lanes: 1, K: 90, int4: false, vec4: false },
  { rowsPerThread: 8, lanes: 32, K: 96, int4: false, vec4: true },
  { rowsPerThread: 3, lanes: 4, K: 90, int4: false, vec4: false },
  { rowsPerThread: 1, lanes: 1, K: 96, int4: true, vec4: true },
  { rowsPerThread: 3, lanes: 2, K: 192, int4: true, vec4: true },
  { rowsPerThread: 8, lanes: 32, K: 96, int4: true, vec4: true },
];
const CASES = (await weightDtypes()).flatMap(([title, dtype, skip]) => LAYOUTS.map((layout) => ({ ...layout, title, dtype, skip })));

describe.each(CASES)(
  'matmulNormed, int4 $int4, K $K, $rowsPerThread rows per thread, $lanes lanes, $title',
  ({ rowsPerThread, lanes, K, int4, vec4, dtype, skip }) => {
    const device = useTestDevice();
    const options: MatmulNormedOptions = { dtype, normDtype: dtype, groupSize: int4 ? 32 : 0, vec4, bias: true, rowsPerThread, lanes };
    // Rows of x at different scales, so that a wrong per-row norm shows.
    const x = randomTensor(M * K, 51).map((v, i) => v * (1 + Math.floor(i / K)));
    const g = storedAs(dtype, randomTensor(K, 52, 0.5, 1.5));
    /** A (rows, K) weight as uploaded and as the kernel reads it. */
    const weight = (rows: number, seed: number) => {
      const values = randomTensor(rows * K, seed);
      if (!int4) {
        const s = storedAs(dtype, values);
        return { w: s.data, scales: s.data, ref: s.ref };
      }
      const q = quantizeInt4(values, rows, K, dtype, 32);
      return { w: q.packed, scales: q.scales, ref: int4RoundTripRef(values, rows, K, 32, dtype) };
    };

    it.skipIf(skip)("'rows': rmsnorm(x) W^T + b into a column slice of a wider output", async () => {
      const w = weight(N, 53);
      const b = storedAs(dtype, randomTensor(N, 54));
      const ldo = N + 9;
      const col0 = 4;
      const { out } = await runKernel(
        device(),
        matmulNormedRows,
        options,
        { x, g: g.data, w: w.w, scales: w.scales, b: b.data, out: M * ldo },
        { M, N, K, ldo, col0, N1: 0, N2: 0, eps: EPS },
      );
      const y = matmulNormedRef(x, g.ref, w.ref, b.ref, M, K, N, EPS);
      const expected = new Float64Array(M * ldo);
      for (let m = 0; m < M; m++) expected.set(y.subarray(m * N, (m + 1) * N), m * ldo + col0);
      checkTensor('rmsnorm(x) W^T + b', out, expected);
    });

    it.skipIf(skip)("'split': q, k, v columns each to their own output", async () => {
      const [N1, N2] = [40, 18];
      const w = weight(N, 55);
      const b = storedAs(dtype, randomTensor(N, 56));
      const { out1, out2, out3 } = await runKernel(
        device(),
        matmulNormedSplit,
        options,
        { x, g: g.data, w: w.w, scales: w.scales, b: b.data, out1: M * N1, out2: M * N2, out3: M * (N - N1 - N2) },
        { M, N, K, ldo: 0, col0: 0, N1, N2, eps: EPS },
      );
      const y = matmulNormedRef(x, g.ref, w.ref, b.ref, M, K, N, EPS);
      const part = (from: number, to: number) =>
        Float64Array.from({ length: M * (to - from) }, (_, i) => y[Math.floor(i / (to - from)) * N + from + (i % (to - from))]);
      checkTensor('q', out1, part(0, N1));
      checkTensor('k', out2, part(N1, N1 + N2));
      checkTensor('v', out3, part(N1 + N2, N));
    });

    it.skipIf(skip)("'swiglu': silu(gate) * up from one weight of gate rows then up rows", async () => {
      const w = weight(2 * N, 57);
      const { out } = await runKernel(
        device(),
        matmulNormedSwiglu,
        { ...options, bias: false },
        { x, g: g.data, w: w.w, scales: w.scales, b: w.scales, out: M * N },
        { M, N, K, ldo: 0, col0: 0, N1: 0, N2: 0, eps: EPS },
      );
      checkTensor('silu(gate) * up', out, matmulNormedSwigluRef(x, g.ref, w.ref, M, K, N, EPS));
    });

    it.skipIf(skip)("'rope': q rotated, k rotated into its cache row, v copied into its cache row, per sequence slot", async () => {
      // Two sequences of Tq = 2 tokens at positions 3, 4, in cache slots 1 and 0; D = 8, H = 2, KV = 1.
      const [D, H, KV, Tq, startPos, S] = [8, 2, 1, 2, 3, 6];
      const T = 4;
      const slots = [1, 0];
      const [N1, N2] = [H * D, KV * D];
      const rows = N1 + 2 * N2;
      const w = weight(rows, 58);
      const bias = storedAs(dtype, randomTensor(rows, 59));
      const gb = new (dtype === 'f32' ? Float32Array : Uint16Array)(K + rows);
      gb.set(g.data);
      gb.set(bias.data, K);
      const invFreq = [1, 0.3, 0.1, 0.03];
      const table = ropeTable(invFreq, startPos, Tq);
      const cs = new Float32Array(T * D + slots.length);
      cs.set(table);
      cs.set(table, table.length);
      new Uint32Array(cs.buffer).set(slots, T * D);
      const xs = x.subarray(0, T * K);
      const slotStride = S * KV * D;
      const { q, kc, vc } = await runKernel(
        device(),
        matmulNormedRope,
        options,
        { x: xs, g: gb, w: w.w, scales: w.scales, cs, q: T * N1, kc: 2 * slotStride, vc: 2 * slotStride },
        { M: T, N: rows / 2, K, ldo: 0, col0: 0, N1, N2, eps: EPS, D, Tq, startPos, slotStride, slotsAt: T * D },
      );
      const y = matmulNormedRef(xs, g.ref, w.ref, bias.ref, T, K, rows, EPS);
      const part = (from: number, width: number) => Float64Array.from({ length: T * width }, (_, i) => y[Math.floor(i / width) * rows + from + (i % width)]);
      // Every sequence is at positions startPos .. startPos + Tq - 1: rotate each sequence's tokens alone.
      const rotated = (values: Float64Array, heads: number) => {
        const out = new Float64Array(values.length);
        for (let b = 0; b < slots.length; b++) {
          const span = Tq * heads * D;
          out.set(ropeRef(values.subarray(b * span, (b + 1) * span), Tq, heads, D, invFreq, startPos), b * span);
        }
        return out;
      };
      checkTensor('q', q, rotated(part(0, N1), H));
      const [kRot, vRows] = [rotated(part(N1, N2), KV), part(N1 + N2, N2)];
      const [kExpected, vExpected] = [new Float64Array(2 * slotStride), new Float64Array(2 * slotStride)];
      for (let t = 0; t < T; t++) {
        const at = slots[Math.floor(t / Tq)] * slotStride + (startPos + (t % Tq)) * KV * D;
        kExpected.set(kRot.subarray(t * N2, (t + 1) * N2), at);
        vExpected.set(vRows.subarray(t * N2, (t + 1) * N2), at);
      }
      checkTensor('key cache', kc, kExpected);
      checkTensor('value cache', vc, vExpected);
    });
  },
);
