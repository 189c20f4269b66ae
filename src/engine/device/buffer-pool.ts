/**
 * Scratch storage buffers reused across forward passes, pooled by size class (powers of two from
 * 256 bytes), so a decode step allocates nothing. Buffers go back with `release`; `destroy` frees all.
 */
import type { EngineDevice } from './device.ts';

const MIN_CLASS = 256;

function sizeClass(bytes: number): number {
  let size = MIN_CLASS;
  while (size < bytes) size *= 2;
  return size;
}

export class BufferPool {
  readonly #device: EngineDevice;
  readonly #free = new Map<number, GPUBuffer[]>();
  readonly #all = new Set<GPUBuffer>();

  constructor(device: EngineDevice) {
    this.#device = device;
  }

  /** A storage buffer of at least `bytes` bytes; its contents are whatever its last user left. */
  acquire(bytes: number, label = 'scratch'): GPUBuffer {
    const size = sizeClass(bytes);
    const reused = this.#free.get(size)?.pop();
    if (reused) return reused;
    const buffer = this.#device.createBuffer(size, label);
    this.#all.add(buffer);
    return buffer;
  }

  release(buffer: GPUBuffer): void {
    if (!this.#all.has(buffer)) return;
    const list = this.#free.get(buffer.size) ?? [];
    if (!list.includes(buffer)) list.push(buffer);
    this.#free.set(buffer.size, list);
  }

  destroy(): void {
    for (const b of this.#all) this.#device.free(b);
    this.#all.clear();
    this.#free.clear();
  }
}
