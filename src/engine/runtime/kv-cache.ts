/**
 * Keys and values of the tokens seen so far, one pair of GPU buffers per layer. A cache has one or
 * more slots (one per sequence of a group decoded together), each (capacity, KV, D) f32 with keys
 * already rotated, slot s starting at s * slotBytes. All slots hold `length` valid tokens. Grows by
 * doubling (copying what each slot holds) up to the storage binding limit.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from '../device/index.ts';
import type { ModelConfig } from '../model/index.ts';

export class KvCache {
  readonly #device: EngineDevice;
  readonly rowBytes: number;
  readonly slots: number;
  readonly #window: number | undefined;
  k: GPUBuffer[] = [];
  v: GPUBuffer[] = [];
  capacity = 0;
  length = 0;

  constructor(device: EngineDevice, config: ModelConfig, capacity = 64, slots = 1) {
    this.#device = device;
    this.#window = config.slidingWindow;
    this.rowBytes = config.numKvHeads * config.headDim * 4;
    this.slots = slots;
    if (capacity > this.maxTokens) throw this.#tooLong(capacity);
    this.#allocate(config.numLayers, capacity);
  }

  /** Bytes from one slot to the next. */
  get slotBytes(): number {
    return this.capacity * this.rowBytes;
  }

  /** The largest number of tokens per slot one cache can hold on this device. */
  get maxTokens(): number {
    return Math.floor(this.#device.caps.maxStorageBufferBindingSize / (this.rowBytes * this.slots));
  }

  #tooLong(needed: number): BatonError {
    return new BatonError({
      code: 'engine/out-of-memory',
      message: `The KV cache would need ${needed} tokens${this.slots > 1 ? ` for each of ${this.slots} sequences` : ''}, above this GPU's ${this.maxTokens}; use a shorter prompt, fewer new tokens or a smaller group.`,
      data: { needed, maxTokens: this.maxTokens, slots: this.slots },
    });
  }

  #allocate(layers: number, capacity: number): void {
    const make = (kind: string, i: number) => this.#device.createBuffer(this.slots * capacity * this.rowBytes, `${kind} cache ${i}`);
    this.k = Array.from({ length: layers }, (_, i) => make('k', i));
    this.v = Array.from({ length: layers }, (_, i) => make('v', i));
    this.capacity = capacity;
  }

  /** Makes room for `tokens` more tokens in every slot, keeping what the cache holds. */
  async reserve(tokens: number): Promise<void> {
    const needed = this.length + tokens;
    if (this.#window !== undefined && needed > this.#window) {
      throw new BatonError({
        code: 'engine/unsupported',
        message: `This model uses a sliding attention window of ${this.#window} tokens, which Baton's engine does not implement; it runs the model on at most ${this.#window} tokens (prompt and generated), and ${needed} were asked for.`,
        data: { needed, slidingWindow: this.#window },
      });
    }
    if (needed <= this.capacity) return;
    if (needed > this.maxTokens) throw this.#tooLong(needed);
    let capacity = Math.max(this.capacity, 1);
    while (capacity < needed) capacity *= 2;
    capacity = Math.min(capacity, this.maxTokens);
    const [oldK, oldV, oldSlotBytes] = [this.k, this.v, this.slotBytes];
    this.#allocate(oldK.length, capacity);
    if (this.length > 0) {
      const batch = this.#device.batch('kv grow');
      const bytes = this.length * this.rowBytes;
      for (let s = 0; s < this.slots; s++) {
        oldK.forEach((b, i) => batch.copy(b, s * oldSlotBytes, this.k[i], s * this.slotBytes, bytes));
        oldV.forEach((b, i) => batch.copy(b, s * oldSlotBytes, this.v[i], s * this.slotBytes, bytes));
      }
      await batch.submit();
    }
    for (const b of [...oldK, ...oldV]) this.#device.free(b);
  }

  /**
   * Fills every slot of this empty cache with what the one-slot cache `prompt` holds: a prompt
   * prefilled once, shared by a group (WebGPU copies never go from a buffer to itself, so the prefill
   * has its own cache).
   */
  async fillFrom(prompt: KvCache): Promise<void> {
    await this.reserve(prompt.length - this.length);
    const batch = this.#device.batch('kv share');
    const bytes = prompt.length * this.rowBytes;
    for (let s = 0; s < this.slots; s++) {
      prompt.k.forEach((b, i) => batch.copy(b, 0, this.k[i], s * this.slotBytes, bytes));
      prompt.v.forEach((b, i) => batch.copy(b, 0, this.v[i], s * this.slotBytes, bytes));
    }
    await batch.submit();
    this.length = prompt.length;
  }

  destroy(): void {
    for (const b of [...this.k, ...this.v]) this.#device.free(b);
    this.k = [];
    this.v = [];
  }
}
