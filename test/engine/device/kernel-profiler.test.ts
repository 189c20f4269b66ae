import { describe, expect, it } from 'vitest';
import { KernelProfiler } from '../../../src/engine/device/index.ts';
import { matmulForward, swigluForward } from '../../../src/engine/kernels/index.ts';
import { randomTensor } from '../../support/check-tensor.ts';
import { useTestDevice } from '../../support/webgpu.ts';

describe('KernelProfiler', () => {
  const device = useTestDevice();

  it('times every dispatch of a batch by kernel (and N), and the results stay right', async () => {
    const d = device();
    expect(d.caps.timestampQuery).toBe(true); // SwiftShader and GPUs alike offer it
    const n = 256;
    const [gate, up] = await Promise.all([d.upload(randomTensor(n, 1), 'gate'), d.upload(randomTensor(n, 2), 'up')]);
    const out = d.createBuffer(n * 4, 'out');
    const w = await d.upload(randomTensor(16 * n, 3), 'w');
    const y = d.createBuffer(16 * 4, 'y');
    const profiler = new KernelProfiler();
    d.profiler = profiler;
    try {
      const batch = d.batch('profiled');
      batch.run(swigluForward, {}, { gate, up, out }, { n });
      batch.run(swigluForward, {}, { gate: out, up, out: gate }, { n });
      batch.run(matmulForward, { dtype: 'f32', bias: false, accumulate: false, rowsPerThread: 1, lanes: 1, vec4: true }, { x: up, w, b: w, out: y }, { M: 1, N: 16, K: n, ldo: 16, col0: 0, alpha: 1 });
      await batch.submit();
    } finally {
      d.profiler = undefined;
    }
    const report = profiler.report();
    expect(report.map((k) => [k.name, k.count]).sort()).toEqual([
      ['matmulForward N=16', 1],
      ['swigluForward', 2],
    ]);
    for (const k of report) expect(k.ms).toBeGreaterThanOrEqual(0);
    // Profiling splits passes but must not change what runs: swiglu's output fed the second dispatch.
    const u = randomTensor(n, 2);
    const first = Float64Array.from(randomTensor(n, 1), (g, i) => (g / (1 + Math.exp(-g))) * u[i]);
    const second = await d.readF32(gate);
    second.forEach((v, i) => expect(v).toBeCloseTo((first[i] / (1 + Math.exp(-first[i]))) * u[i], 5));
    profiler.reset();
    expect(profiler.report()).toEqual([]);
    for (const b of [gate, up, out, w, y]) d.free(b);
  });
});
