/**
 * The engine tests' GPU: one Dawn device per test file (SwiftShader here, a real GPU where there
 * is one), closed after the file. `gpuTest()` gives the device to a describe block.
 */
import { afterAll, beforeAll } from 'vitest';
import type { EngineDevice, KernelSpec } from '../../src/engine/device/index.ts';
import type { Dtype } from '../../src/engine/kernels/index.ts';
import { createNodeGpu, requestNodeAdapter, type NodeGpu } from '../../src/node/models/webgpu.ts';

/** Call inside a describe (or at file level); the returned getter is valid inside tests. */
export function useTestDevice(): () => EngineDevice {
  let gpu: NodeGpu | undefined;
  beforeAll(async () => {
    gpu = await createNodeGpu();
  });
  afterAll(async () => {
    // Destroying a device that Dawn is still setting up work for (a test that made pipelines and bind groups
    // but never waited on the GPU) crashed the test process now and then on a loaded machine.
    await gpu?.device.gpu.queue.onSubmittedWorkDone();
    gpu?.close();
    gpu = undefined;
  });
  return () => {
    if (!gpu) throw new Error('the test device is made in beforeAll; use it inside a test');
    return gpu.device;
  };
}

/**
 * Whether this machine's adapter has shader-f16 (GPUs mostly; SwiftShader has not). Asked before
 * tests are collected (top-level await), so that f16 tests are skipped visibly, by `it.skipIf`.
 */
export async function adapterHasShaderF16(): Promise<boolean> {
  return (await requestNodeAdapter()).adapter.features.has('shader-f16');
}

/**
 * The weight dtypes to test kernels and models with, as [title, dtype, skip] rows for
 * `describe.each(...)('... %s weights', (_, dtype, skip) => ...)` and `it.skipIf(skip)`: f32, and
 * f16, skipped (its title says why) where the adapter has no shader-f16.
 */
export async function weightDtypes(): Promise<[title: string, dtype: Dtype, skip: boolean][]> {
  const f16 = await adapterHasShaderF16();
  return [
    ['f32', 'f32', false],
    [f16 ? 'f16' : 'f16 (skipped: no shader-f16 here)', 'f16', !f16],
  ];
}

/**
 * Runs one kernel on CPU arrays: each binding gets a buffer holding its array (a number makes a
 * zero-filled f32 buffer of that many values); returns every read_write binding read back as f32.
 */
export async function runKernel<O, B extends string, U extends string>(
  device: EngineDevice,
  kernel: KernelSpec<O, B, U>,
  options: O,
  inputs: Record<B, Float32Array | Uint32Array | Uint16Array | number>,
  uniforms: Record<U, number>,
): Promise<Record<B, Float32Array>> {
  const buffers = {} as Record<B, GPUBuffer>;
  for (const b of kernel.bindings) {
    const v = inputs[b.name];
    buffers[b.name] = typeof v === 'number' ? device.createBuffer(v * 4, b.name) : await device.upload(v, b.name);
  }
  await device.batch(kernel.name).run(kernel, options, buffers, uniforms).submit();
  const out = {} as Record<B, Float32Array>;
  for (const b of kernel.bindings) {
    if (b.access === 'read_write') out[b.name] = await device.readF32(buffers[b.name]);
  }
  for (const b of kernel.bindings) buffers[b.name].destroy();
  return out;
}
