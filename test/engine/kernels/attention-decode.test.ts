/**
 * attentionDecode (q/k/v, rope, the cache append and attention in one dispatch) against attentionDecodeRef:
 * a batch of rows in their own cache slots (one slot unused, as when a completion has left the group), GQA
 * with two and three query heads per KV head, caches of one key and of more than one block of 64 keys,
 * f32 and int4 weights, one thread or several per column. The cache must gain exactly the new rows.
 */
import { describe, it } from 'vitest';
import { attentionDecode, attentionDecodeRef, decodeLanes, ropeTable, type AttentionDecodeOptions } from '../../../src/engine/kernels/index.ts';
import { int4RoundTripRef, quantizeInt4 } from '../../../src/engine/quant/index.ts';
import { checkTensor, randomTensor } from '../../support/check-tensor.ts';
import { runKernel, useTestDevice } from '../../support/webgpu.ts';

const EPS = 1e-5;
const SLOTS = [2, 0, 3]; // rows' cache slots; slot 1 is unused and must stay as it was
const CAPACITY = 72;

describe.each([
  { H: 4, KV: 2, D: 8, K: 64, startPos: 0, int4: false, lanes: 1 },
  { H: 6, KV: 2, D: 16, K: 64, startPos: 69, int4: false, lanes: 1 },
  { H: 6, KV: 2, D: 16, K: 64, startPos: 69, int4: false, lanes: 32 },
  { H: 4, KV: 2, D: 8, K: 96, startPos: 5, int4: true, lanes: 1 },
  { H: 6, KV: 2, D: 16, K: 64, startPos: 64, int4: true, lanes: 4 },
])('attentionDecode, H $H KV $KV D $D, $startPos cached keys, int4 $int4, $lanes lanes', ({ H, KV, D, K, startPos, int4, lanes }) => {
  const device = useTestDevice();

  it('attends with its own q/k/v and appends the new key and value to each row slot', async () => {
    const M = SLOTS.length;
    const rows = (H + 2 * KV) * D;
    const x = randomTensor(M * K, 61).map((v, i) => v * (1 + Math.floor(i / K))); // rows at different scales
    const g = randomTensor(K, 62, 0.5, 1.5);
    const bias = randomTensor(rows, 63, -0.2, 0.2);
    const values = randomTensor(rows * K, 64);
    const q4 = int4 ? quantizeInt4(values, rows, K, 'f32', 32) : undefined;
    const wRef = q4 ? int4RoundTripRef(values, rows, K, 32, 'f32') : Float64Array.from(values);
    const invFreq = Array.from({ length: D / 2 }, (_, i) => 1 / 10000 ** ((2 * i) / D));
    const table = ropeTable(invFreq, startPos, 1);
    const cs = new Float32Array(M * D + M);
    for (let m = 0; m < M; m++) cs.set(table, m * D);
    new Uint32Array(cs.buffer).set(SLOTS, M * D);
    const slotStride = CAPACITY * KV * D;
    const kc = randomTensor(4 * slotStride, 65, -2, 2);
    const vc = randomTensor(4 * slotStride, 66);
    const options: AttentionDecodeOptions = {
      dtype: 'f32',
      normDtype: 'f32',
      groupSize: int4 ? 32 : 0,
      vec4: true,
      bias: true,
      headDim: D,
      lanes: decodeLanes(D, lanes),
    };
    const got = await runKernel(
      device(),
      attentionDecode,
      options,
      { x, g: Float32Array.of(...g, ...bias), w: q4?.packed ?? values, scales: q4?.scales ?? values, cs, kc, vc, out: M * H * D },
      { M, K, H, KV, eps: EPS, startPos, slotStride, slotsAt: M * D, scale: 1 / Math.sqrt(D) },
    );
    const cached = SLOTS.map((s) => ({
      k: kc.subarray(s * slotStride, s * slotStride + startPos * KV * D),
      v: vc.subarray(s * slotStride, s * slotStride + startPos * KV * D),
    }));
    const ref = attentionDecodeRef(x, g, wRef, bias, invFreq, cached, { M, K, H, KV, D, startPos, eps: EPS });
    const [kExpected, vExpected] = [Float64Array.from(kc), Float64Array.from(vc)];
    SLOTS.forEach((s, m) => {
      const at = s * slotStride + startPos * KV * D;
      kExpected.set(ref.k.subarray(m * KV * D, (m + 1) * KV * D), at);
      vExpected.set(ref.v.subarray(m * KV * D, (m + 1) * KV * D), at);
    });
    checkTensor('key cache', got.kc, kExpected);
    checkTensor('value cache', got.vc, vExpected);
    checkTensor('attention', got.out, ref.out);
  });
});
