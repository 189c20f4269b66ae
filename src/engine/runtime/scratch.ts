/**
 * The activation buffers of one forward pass, taken from the device's pool and given back together
 * once the pass is submitted. Reusing a buffer later in the same batch is safe: dispatches run in
 * order. Only CPU writes (queue.writeBuffer) must target buffers no unsubmitted batch still uses.
 */
import type { EngineDevice } from '../device/index.ts';

export class Scratch {
  readonly #device: EngineDevice;
  readonly #taken: GPUBuffer[] = [];

  constructor(device: EngineDevice) {
    this.#device = device;
  }

  /** A buffer for `floats` f32 values (or u32 ids). */
  floats(floats: number, label: string): GPUBuffer {
    const buffer = this.#device.pool.acquire(Math.max(1, floats) * 4, label);
    this.#taken.push(buffer);
    return buffer;
  }

  release(): void {
    for (const b of this.#taken) this.#device.pool.release(b);
    this.#taken.length = 0;
  }
}
