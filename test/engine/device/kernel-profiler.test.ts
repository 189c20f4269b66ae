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
      batch.run(
        matmulForward,
        { dtype: 'f32', bias: false, accumulate: false, rowsPerThread: 1, lanes: 1, vec4: true },
        { x: up, w, b: w, out: y },
        { M: 1, N: 16, K: n, ldo: 16, col0: 0, alpha: 1 },
      );
      await batch.submit();
    } finally {
      d.profiler = undefined;
    }
    const report = profiler.report();
    expect(report.map((k) => [k.name, k.count]).sort()).toEqual([
      ['matmulForward N=16', 1],
      ['swigluForward', 2],
    ]);
    for (const k of report) expect(k.ms).toBeGreaterThan(0);
    // Profiling splits passes but must not change what runs: swiglu's output fed the second dispatch.
    const u = randomTensor(n, 2);
    const first = Float64Array.from(randomTensor(n, 1), (g, i) => (g / (1 + Math.exp(-g))) * u[i]);
    const second = await d.readF32(gate);
    second.forEach((v, i) => expect(v).toBeCloseTo((first[i] / (1 + Math.exp(-first[i]))) * u[i], 5));
    profiler.reset();
    expect(profiler.report()).toEqual([]);
    for (const b of [gate, up, out, w, y]) d.free(b);
  });

  it('gives each dispatch its own time: 256 times the work takes longer, and all of it fits in the submit', async () => {
    const d = device();
    const [M, K, small, big] = [8, 1024, 16, 4096];
    const x = await d.upload(randomTensor(M * K, 4), 'x');
    const w = await d.upload(randomTensor(big * K, 5), 'w'); // (big, K), the small matmul reads its first rows
    const y = d.createBuffer(M * big * 4, 'y');
    const options = { dtype: 'f32', bias: false, accumulate: false, rowsPerThread: 1, lanes: 1, vec4: true } as const;
    const profiler = new KernelProfiler();
    d.profiler = profiler;
    let wallMs: number;
    try {
      const batch = d.batch('profiled');
      batch.run(matmulForward, options, { x, w, b: w, out: y }, { M, N: small, K, ldo: big, col0: 0, alpha: 1 });
      batch.run(matmulForward, options, { x, w, b: w, out: y }, { M, N: big, K, ldo: big, col0: 0, alpha: 1 });
      // The batch's GPU work is encoded, run and timed inside submit.
      const started = performance.now();
      await batch.submit();
      wallMs = performance.now() - started;
    } finally {
      d.profiler = undefined;
    }
    const report = profiler.report();
    expect(report.map((k) => [k.name, k.count]).sort()).toEqual([
      [`matmulForward N=${small}`, 1],
      [`matmulForward N=${big}`, 1],
    ]);
    const msOf = (N: number) => report.find((k) => k.name === `matmulForward N=${N}`)!.ms;
    const [smallMs, bigMs] = [msOf(small), msOf(big)];
    expect(smallMs).toBeGreaterThan(0);
    expect(bigMs).toBeGreaterThan(smallMs);
    // GPU time cannot exceed the wall-clock time around it (a time in microseconds would).
    expect(smallMs + bigMs).toBeLessThan(wallMs);
    // Exact timestamps (Dawn's default rounds them to 65536 ns, which times short dispatches as 0).
    expect(Math.round(smallMs * 1e6) % 65536).not.toBe(0);
    for (const b of [x, w, y]) d.free(b);
  });
});
