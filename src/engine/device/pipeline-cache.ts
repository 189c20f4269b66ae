/**
 * Compute pipelines cached by (kernel, options). Creation runs inside a validation error scope so
 * that a WGSL or layout mistake surfaces as a BatonError naming the kernel, not as a console line.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { KernelSpec } from './kernel-spec.ts';

export interface CachedPipeline {
  readonly pipeline: GPUComputePipeline;
  readonly layout: GPUBindGroupLayout;
}

export class PipelineCache {
  readonly #device: GPUDevice;
  readonly #pipelines = new Map<string, CachedPipeline>();
  /** Error-scope results not yet awaited; `settle()` turns the first failure into an exception. */
  #pending: Promise<BatonError | undefined>[] = [];

  constructor(device: GPUDevice) {
    this.#device = device;
  }

  get size(): number {
    return this.#pipelines.size;
  }

  get<O, B extends string, U extends string>(kernel: KernelSpec<O, B, U>, options: O): CachedPipeline {
    const key = `${kernel.name}:${JSON.stringify(options)}`;
    const hit = this.#pipelines.get(key);
    if (hit) return hit;
    const device = this.#device;
    const code = kernel.wgsl(options);
    device.pushErrorScope('validation');
    const entries: GPUBindGroupLayoutEntry[] = kernel.bindings.map((b, i) => ({
      binding: i,
      visibility: 0x4, // GPUShaderStage.COMPUTE
      buffer: { type: b.access === 'read' ? 'read-only-storage' : 'storage' },
    }));
    entries.push({ binding: kernel.bindings.length, visibility: 0x4, buffer: { type: 'uniform' } });
    const layout = device.createBindGroupLayout({ label: kernel.name, entries });
    const pipeline = device.createComputePipeline({
      label: key,
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module: device.createShaderModule({ label: kernel.name, code }), entryPoint: 'main' },
    });
    this.#pending.push(
      device.popErrorScope().then((error) =>
        error
          ? new BatonError({
              code: 'engine/gpu',
              message: `WebGPU rejected kernel ${key}: ${error.message} This is an engine bug; please report it with the adapter name.`,
              data: { kernel: kernel.name, options: JSON.stringify(options) },
            })
          : undefined,
      ),
    );
    const cached = { pipeline, layout };
    this.#pipelines.set(key, cached);
    return cached;
  }

  /** Waits for every pipeline created so far to validate; throws the first failure. */
  async settle(): Promise<void> {
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    const failure = (await Promise.all(pending)).find((e) => e !== undefined);
    if (failure) throw failure;
  }
}
