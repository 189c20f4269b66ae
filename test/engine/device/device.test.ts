import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../src/core/errors/index.ts';
import type { KernelSpec } from '../../../src/engine/device/index.ts';
import { sampleTokens, swigluForward } from '../../../src/engine/kernels/index.ts';
import { useTestDevice } from '../../support/webgpu.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const broken: KernelSpec<Record<string, never>, 'out', 'n'> = {
  name: 'broken',
  bindings: [{ name: 'out', access: 'read_write' }],
  uniforms: [{ name: 'n', type: 'u32' }],
  wgsl: () => '@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }',
  grid: () => [1, 1, 1],
};

describe('EngineDevice', () => {
  const device = useTestDevice();

  it('reads capabilities once, frozen, with the adapter real binding limit', () => {
    const caps = device().caps;
    expect(Object.isFrozen(caps)).toBe(true);
    expect(caps.maxStorageBufferBindingSize).toBeGreaterThan(128 * 1024 * 1024); // above the WebGPU default
    expect(caps.shaderF16).toBe(device().gpu.features.has('shader-f16'));
    expect(caps.software).toBe(caps.adapter.architecture === 'swiftshader' || /llvmpipe|lavapipe/i.test(caps.adapter.description));
  });

  it('round-trips data through a buffer, including an odd byte length', async () => {
    const data = Uint16Array.from([1, 2, 3]);
    const buffer = await device().upload(data, 'odd');
    expect([...new Uint16Array(await device().read(buffer, 0, 6))]).toEqual([1, 2, 3]);
    device().free(buffer);
  });

  it('reads f32 values into a given array, again and again (the decode loop), or into a new one', async () => {
    const d = device();
    const buffer = await d.upload(Float32Array.of(1, 2, 3, 4, 5), 'values');
    const into = new Float32Array(8).fill(-1);
    const first = await d.readF32(buffer, 1, 3, into);
    expect(first.buffer).toBe(into.buffer);
    expect([...into]).toEqual([2, 3, 4, -1, -1, -1, -1, -1]);
    d.write(buffer, Float32Array.of(9, 8, 7, 6, 5));
    expect([...(await d.readF32(buffer, 0, undefined, into))]).toEqual([9, 8, 7, 6, 5]);
    const fresh = await d.readF32(buffer, 2);
    expect(fresh.buffer).not.toBe(into.buffer);
    expect([...fresh]).toEqual([7, 6, 5]);
    d.free(buffer);
  });

  it('counts the bytes its buffers hold, and their peak', () => {
    const d = device();
    d.memory.resetPeak();
    const start = d.memory.current;
    const a = d.createBuffer(4000, 'a');
    const b = d.createBuffer(1000, 'b');
    expect(d.memory.current - start).toBe(5000);
    d.free(a);
    expect(d.memory.current - start).toBe(1000);
    expect(d.memory.peak - start).toBe(5000);
    d.memory.resetPeak();
    expect(d.memory.peak).toBe(d.memory.current);
    d.free(b);
    expect(d.memory.current).toBe(start);
  });

  it('caches a pipeline per (kernel, options)', async () => {
    const d = device();
    const n = 4;
    const buf = d.createBuffer(n * 4, 'x');
    const before = d.pipelines.size;
    await d
      .batch()
      .run(swigluForward, {}, { gate: buf, up: buf, out: d.createBuffer(n * 4, 'o') }, { n })
      .submit();
    await d
      .batch()
      .run(swigluForward, {}, { gate: buf, up: buf, out: d.createBuffer(n * 4, 'o2') }, { n })
      .submit();
    expect(d.pipelines.size - before).toBeLessThanOrEqual(1);
    expect(d.pipelines.get(swigluForward, {})).toBe(d.pipelines.get(swigluForward, {}));
  });

  it('tells options apart by key and value, not by their values alone', () => {
    const d = device();
    const greedy = d.pipelines.get(sampleTokens, { greedy: true, masked: false, topK: false, topP: false });
    expect(d.pipelines.get(sampleTokens, { greedy: true, masked: false, topK: false, topP: false })).toBe(greedy);
    expect(d.pipelines.get(sampleTokens, { masked: true, greedy: false, topK: false, topP: false })).not.toBe(greedy);
    expect(d.pipelines.get(sampleTokens, { masked: true, greedy: false, topK: false, topP: false })).toBe(
      d.pipelines.get(sampleTokens, { masked: true, greedy: false, topK: false, topP: false }),
    );
  });

  it('counts the dispatches its batches encode, skipping empty grids and copies', async () => {
    const d = device();
    const buf = d.createBuffer(64 * 4, 'io');
    const before = d.dispatches;
    await d
      .batch()
      .run(swigluForward, {}, { gate: buf, up: buf, out: d.createBuffer(64 * 4, 'o') }, { n: 64 })
      .copy(buf, 0, d.createBuffer(16, 'c'), 0, 16)
      .run(swigluForward, {}, { gate: buf, up: buf, out: d.createBuffer(64 * 4, 'o2') }, { n: 0 })
      .run(swigluForward, {}, { gate: buf, up: buf, out: d.createBuffer(64 * 4, 'o3') }, { n: 3 })
      .submit();
    expect(d.dispatches - before).toBe(2);
  });

  it('reuses pooled scratch buffers by size class', () => {
    const pool = device().pool;
    const a = pool.acquire(1000);
    pool.release(a);
    expect(pool.acquire(900)).toBe(a);
    expect(pool.acquire(900)).not.toBe(a);
  });

  it('turns invalid WGSL into an engine/gpu BatonError at submit', async () => {
    const d = device();
    const out = d.createBuffer(4, 'out');
    const error = await d
      .batch()
      .run(broken, {}, { out }, { n: 1 })
      .submit()
      .catch((e: unknown) => e);
    expect(BatonError.is(error, 'engine/gpu')).toBe(true);
    expect((error as BatonError).message).toContain('broken');
  });

  it('rethrows an uncaptured GPU error at the next readback or submit, once', async () => {
    const d = device();
    d.gpu.createBuffer({ size: 4, usage: 0 }); // invalid: no usage
    const error = await d.read(d.createBuffer(4, 'x')).catch((e: unknown) => e);
    expect(BatonError.is(error, 'engine/gpu')).toBe(true);
    expect((error as BatonError).message).toContain('usage');
    expect(await d.read(d.createBuffer(4, 'y'))).toBeInstanceOf(ArrayBuffer);
  });
});

describe('a lost device', () => {
  it('throws engine/device-lost at the next submit', async () => {
    // In a process of its own: Dawn over SwiftShader sometimes aborts while tearing down a destroyed
    // device's threads at exit, which would take the test runner's worker down with it. The outcome is
    // printed before that teardown, and is what this test checks.
    const script = `const { createNodeGpu } = await import('./src/node/models/webgpu.ts');
      const { swigluForward } = await import('./src/engine/kernels/index.ts');
      const gpu = await createNodeGpu();
      const buf = gpu.device.createBuffer(16, 'x');
      gpu.device.gpu.destroy(); // behind the engine's back, as a driver reset would
      await gpu.device.gpu.lost;
      const error = await gpu.device.batch().run(swigluForward, {}, { gate: buf, up: buf, out: buf }, { n: 4 }).submit().catch((e) => e);
      console.log(JSON.stringify({ code: error?.code ?? null }));
      gpu.close();`;
    const stdout = await new Promise<string>((resolve) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT }, (_error, out) => resolve(out)),
    );
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null');
    expect(outcome).toEqual({ code: 'engine/device-lost' });
  });
});
