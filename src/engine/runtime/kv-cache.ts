/**
 * Keys and values of the tokens seen so far, one pair of GPU buffers per layer, each
 * (capacity, KV, D) f32 with keys already rotated. Grows by doubling (copying what it holds) up to
 * the storage binding limit; `length` tokens are valid.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import type { ModelConfig } from '../model/index.ts';

export class KvCache {
  readonly #device: EngineDevice;
  readonly rowBytes: number;
  k: GPUBuffer[] = [];
  v: GPUBuffer[] = [];
  capacity = 0;
  length = 0;

  constructor(device: EngineDevice, config: ModelConfig, capacity = 64) {
    this.#device = device;
    this.rowBytes = config.numKvHeads * config.headDim * 4;
    this.#allocate(config.numLayers, capacity);
  }

  /** The largest number of tokens one cache can hold on this device. */
  get maxTokens(): number {
    return Math.floor(this.#device.caps.maxStorageBufferBindingSize / this.rowBytes);
  }

  #allocate(layers: number, capacity: number): void {
    const make = (kind: string, i: number) => this.#device.createBuffer(capacity * this.rowBytes, `${kind} cache ${i}`);
    this.k = Array.from({ length: layers }, (_, i) => make('k', i));
    this.v = Array.from({ length: layers }, (_, i) => make('v', i));
    this.capacity = capacity;
  }

  /** Makes room for `tokens` more tokens, keeping what the cache holds. */
  async reserve(tokens: number): Promise<void> {
    const needed = this.length + tokens;
    if (needed <= this.capacity) return;
    if (needed > this.maxTokens) {
      throw new BatonError({
        code: 'engine/out-of-memory',
        message: `The KV cache would need ${needed} tokens, above this GPU's ${this.maxTokens}; use a shorter prompt or fewer new tokens.`,
        data: { needed, maxTokens: this.maxTokens },
      });
    }
    let capacity = Math.max(this.capacity, 1);
    while (capacity < needed) capacity *= 2;
    capacity = Math.min(capacity, this.maxTokens);
    const [oldK, oldV] = [this.k, this.v];
    this.#allocate(oldK.length, capacity);
    if (this.length > 0) {
      const batch = this.#device.batch('kv grow');
      const bytes = this.length * this.rowBytes;
      oldK.forEach((b, i) => batch.copy(b, 0, this.k[i], 0, bytes));
      oldV.forEach((b, i) => batch.copy(b, 0, this.v[i], 0, bytes));
      await batch.submit();
    }
    for (const b of [...oldK, ...oldV]) b.destroy();
  }

  destroy(): void {
    for (const b of [...this.k, ...this.v]) b.destroy();
    this.k = [];
    this.v = [];
  }
}
