/**
 * The engine's one handle on WebGPU: made from a GPUAdapter (or an existing GPUDevice) that the
 * caller passes in, never from a global. It owns every GPU object the engine makes (pipelines,
 * pooled scratch buffers, the uniform ring) and turns GPU failures into BatonErrors: device loss
 * and uncaptured errors are recorded as they happen and rethrown by `check()`, which every submit
 * and readback calls ('engine/device-lost', 'engine/gpu'). Pattern from gpu.cpp's ErrorState/check().
 */
import { BatonError } from '../../core/errors/index.ts';
import { BindGroupCache } from './bind-group-cache.ts';
import { BufferPool } from './buffer-pool.ts';
import { MemoryMeter } from './memory-meter.ts';
import { raisedLimits, readCapabilities, type Capabilities } from './capabilities.ts';
import { CommandBatch } from './command-batch.ts';
import type { KernelProfiler } from './kernel-profiler.ts';
import { PipelineCache } from './pipeline-cache.ts';
import { BufferUsage, MapMode, STORAGE_USAGE } from './usage.ts';

/** Readback buffers kept per size (a group's reads of equal size may overlap). */
const STAGING_PER_SIZE = 4;

export async function createEngineDevice(adapter: GPUAdapter): Promise<EngineDevice> {
  // timestamp-query only serves KernelProfiler (benchmarks); asking for it costs nothing otherwise.
  const requiredFeatures = (['shader-f16', 'timestamp-query'] as const).filter((f) => adapter.features.has(f));
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ label: 'baton', requiredFeatures, requiredLimits: raisedLimits(adapter) });
  } catch (e) {
    throw new BatonError({
      code: 'engine/gpu',
      message: `The WebGPU adapter refused to create a device (${(e as Error).message}); close other GPU-heavy tabs or apps and retry.`,
      cause: e,
      isRetryable: true,
    });
  }
  return new EngineDevice(device, adapter.info);
}

export class EngineDevice {
  readonly gpu: GPUDevice;
  readonly caps: Capabilities;
  readonly pipelines: PipelineCache;
  readonly bindGroups: BindGroupCache;
  readonly pool: BufferPool;
  /** Bytes held in buffers made through this device (weights, caches, scratch, uniforms), and their peak. */
  readonly memory = new MemoryMeter();
  /** Set (where caps.timestampQuery) to time every dispatch; see kernel-profiler.ts. */
  profiler: KernelProfiler | undefined;
  /** Kernel dispatches encoded through this device's batches so far (the bench counts a decode step's). */
  dispatches = 0;
  #lost: GPUDeviceLostInfo | undefined;
  #destroyed = false;
  #errors: string[] = [];
  #uniforms: GPUBuffer | undefined;
  /** Unmapped readback buffers by size: a decode step reads its logits back every token. */
  #staging = new Map<number, GPUBuffer[]>();

  constructor(device: GPUDevice, info?: GPUAdapterInfo) {
    this.gpu = device;
    this.caps = readCapabilities(device, info ?? device.adapterInfo);
    this.pipelines = new PipelineCache(device);
    this.bindGroups = new BindGroupCache(device);
    this.pool = new BufferPool(this);
    void device.lost.then((lost) => {
      this.#lost = lost;
    });
    device.onuncapturederror = (event) => {
      this.#errors.push(event.error.message);
    };
  }

  /** Throws what went wrong on the GPU since the last check: a lost device first, then the first uncaptured error. */
  check(): void {
    if (this.#lost || this.#destroyed) {
      throw new BatonError({
        code: 'engine/device-lost',
        message: this.#destroyed
          ? 'The engine device was destroyed; create a new one.'
          : `The GPU device was lost (${this.#lost?.reason}: ${this.#lost?.message}); reload the model to continue.`,
        data: { reason: this.#lost?.reason ?? 'destroyed' },
        isRetryable: true,
      });
    }
    if (this.#errors.length > 0) {
      const [first] = this.#errors;
      const count = this.#errors.length;
      this.#errors = [];
      throw new BatonError({
        code: 'engine/gpu',
        message: `WebGPU reported an error (an engine bug; please report it${count > 1 ? `; ${count - 1} more followed` : ''}): ${first.trim()}`,
        data: { count },
      });
    }
  }

  /** A storage buffer for weights or state that lives as long as its owner; zero-filled. */
  createBuffer(bytes: number, label: string): GPUBuffer {
    if (bytes > this.caps.maxBufferSize) {
      throw new BatonError({
        code: 'engine/out-of-memory',
        message: `${label} needs ${bytes} bytes, above this GPU's largest buffer (${this.caps.maxBufferSize} bytes).`,
        data: { label, bytes, maxBufferSize: this.caps.maxBufferSize },
      });
    }
    return this.#track(this.gpu.createBuffer({ label, size: Math.max(4, Math.ceil(bytes / 4) * 4), usage: STORAGE_USAGE }));
  }

  /** Destroys a buffer made by this device and stops counting it. */
  free(buffer: GPUBuffer): void {
    this.memory.freed(buffer);
    buffer.destroy();
  }

  #track(buffer: GPUBuffer): GPUBuffer {
    this.memory.allocated(buffer);
    return buffer;
  }

  /** A new buffer holding `data`; an allocation the GPU cannot make is an 'engine/out-of-memory' error. */
  async upload(data: ArrayBufferView, label: string): Promise<GPUBuffer> {
    this.check();
    this.gpu.pushErrorScope('out-of-memory');
    const buffer = this.createBuffer(data.byteLength, label);
    const error = await this.gpu.popErrorScope();
    if (error) {
      this.free(buffer);
      throw new BatonError({
        code: 'engine/out-of-memory',
        message: `Out of GPU memory while allocating ${label} (${data.byteLength} bytes); try a smaller model or int4 weights.`,
        data: { label, bytes: data.byteLength },
      });
    }
    this.write(buffer, data);
    return buffer;
  }

  /** Queues a CPU-to-GPU copy; it lands before any batch submitted after this call. */
  write(buffer: GPUBuffer, data: ArrayBufferView, byteOffset = 0): void {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    // writeBuffer wants a multiple of 4 bytes; pad the tail (e.g. an odd number of f16 values).
    const padded = bytes.byteLength % 4 === 0 ? bytes : padTo4(bytes);
    this.gpu.queue.writeBuffer(buffer, byteOffset, padded.buffer as ArrayBuffer, padded.byteOffset, padded.byteLength);
  }

  batch(label = 'batch'): CommandBatch {
    return new CommandBatch(this, label);
  }

  /** The uniform ring for a batch: one buffer, grown as needed, rewritten per submit (queue order keeps earlier batches intact). */
  uniformBuffer(bytes: number): GPUBuffer {
    if (!this.#uniforms || this.#uniforms.size < bytes) {
      if (this.#uniforms) this.free(this.#uniforms);
      let size = 4096;
      while (size < bytes) size *= 2;
      this.#uniforms = this.#track(this.gpu.createBuffer({ label: 'uniforms', size, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST }));
    }
    return this.#uniforms;
  }

  /**
   * Copies `byteLength` bytes at `byteOffset` of `buffer` back to the CPU, after all work submitted
   * so far, into a new ArrayBuffer, or into `into` (at least byteLength bytes) when given: a decode
   * loop reading 600 KB of logits per token would otherwise hand the garbage collector its work.
   */
  async read(buffer: GPUBuffer, byteOffset = 0, byteLength = buffer.size - byteOffset, into?: ArrayBufferView): Promise<ArrayBuffer> {
    this.check();
    const size = Math.ceil(byteLength / 4) * 4;
    const staging =
      this.#staging.get(size)?.pop() ?? this.#track(this.gpu.createBuffer({ label: 'readback', size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST }));
    let reusable = false;
    try {
      const encoder = this.gpu.createCommandEncoder({ label: 'readback' });
      encoder.copyBufferToBuffer(buffer, byteOffset, staging, 0, size);
      this.gpu.queue.submit([encoder.finish()]);
      await staging.mapAsync(MapMode.READ);
      const mapped = staging.getMappedRange();
      let out: ArrayBuffer;
      if (into) {
        new Uint8Array(into.buffer, into.byteOffset, byteLength).set(new Uint8Array(mapped, 0, byteLength));
        out = into.buffer as ArrayBuffer;
      } else {
        out = mapped.slice(0, byteLength);
      }
      staging.unmap();
      reusable = true;
      this.check();
      return out;
    } catch (e) {
      this.check();
      throw e;
    } finally {
      const kept = this.#staging.get(size) ?? [];
      if (reusable && kept.length < STAGING_PER_SIZE) this.#staging.set(size, [...kept, staging]);
      else this.free(staging);
    }
  }

  /** `count` f32 values (default: to the end) from element `offsetElements`; into the start of `into` when given. */
  async readF32(buffer: GPUBuffer, offsetElements = 0, count?: number, into?: Float32Array): Promise<Float32Array> {
    const bytes = count === undefined ? undefined : count * 4;
    if (!into) return new Float32Array(await this.read(buffer, offsetElements * 4, bytes));
    const n = count ?? buffer.size / 4 - offsetElements;
    await this.read(buffer, offsetElements * 4, n * 4, into);
    return into.subarray(0, n);
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.pool.destroy();
    for (const buffers of this.#staging.values()) for (const b of buffers) this.free(b);
    if (this.#uniforms) this.free(this.#uniforms);
    this.gpu.destroy();
  }
}

function padTo4(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.byteLength / 4) * 4);
  out.set(bytes);
  return out;
}
