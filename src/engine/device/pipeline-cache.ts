/**
 * Compute pipelines cached by (kernel, options). Creation runs inside a validation error scope so
 * that a WGSL or layout mistake surfaces as a BatonError naming the kernel, not as a console line.
 * The lookup, once per dispatch, walks nested maps by the options' keys and values rather than
 * building a string key (JSON of the options) each time.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { KernelSpec } from './kernel-spec.ts';

interface CachedPipeline {
  readonly pipeline: GPUComputePipeline;
  readonly layout: GPUBindGroupLayout;
}

export class PipelineCache {
  readonly #device: GPUDevice;
  /** kernel -> key -> value -> key -> value ... -> LEAF -> pipeline. */
  readonly #tree = new Map<unknown, Map<unknown, unknown>>();
  #size = 0;
  /** Error-scope results not yet awaited; `settle()` turns the first failure into an exception. */
  #pending: Promise<BatonError | undefined>[] = [];

  constructor(device: GPUDevice) {
    this.#device = device;
  }

  get size(): number {
    return this.#size;
  }

  get<O, B extends string, U extends string>(kernel: KernelSpec<O, B, U>, options: O): CachedPipeline {
    let node = this.#tree.get(kernel);
    if (!node) this.#tree.set(kernel, (node = new Map()));
    const values = options as Record<string, unknown>;
    for (const k in values) node = child(child(node, k), values[k]);
    const hit = node.get(LEAF) as CachedPipeline | undefined;
    if (hit) return hit;
    const key = `${kernel.name}:${JSON.stringify(options)}`;
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
    node.set(LEAF, cached);
    this.#size++;
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

const LEAF = Symbol('pipeline');

function child(node: Map<unknown, unknown>, key: unknown): Map<unknown, unknown> {
  let next = node.get(key) as Map<unknown, unknown> | undefined;
  if (!next) node.set(key, (next = new Map()));
  return next;
}
