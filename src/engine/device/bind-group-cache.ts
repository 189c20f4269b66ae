/**
 * Bind groups kept across batches. A decode step binds the same weights, pooled scratch buffers
 * and uniform-ring slots as the step before, and making ~400 bind groups per token was a visible
 * share of its CPU time. The key is the layout and each entry's buffer (by identity), offset and
 * size; buffers get ids on first sight, so a new buffer never matches an old group. The map is
 * emptied when it reaches `limit`, so passes over many prompt lengths cannot grow it without end.
 */
export interface BufferBinding {
  buffer: GPUBuffer;
  offset: number;
  size: number;
}

export class BindGroupCache {
  readonly #gpu: GPUDevice;
  readonly #limit: number;
  readonly #ids = new WeakMap<object, number>();
  #nextId = 0;
  #groups = new Map<string, GPUBindGroup>();

  constructor(gpu: GPUDevice, limit = 4096) {
    this.#gpu = gpu;
    this.#limit = limit;
  }

  get size(): number {
    return this.#groups.size;
  }

  get(label: string, layout: GPUBindGroupLayout, bindings: readonly BufferBinding[]): GPUBindGroup {
    let key = String(this.#id(layout));
    for (const b of bindings) key += `|${this.#id(b.buffer)}:${b.offset}:${b.size}`;
    let group = this.#groups.get(key);
    if (!group) {
      if (this.#groups.size >= this.#limit) this.#groups = new Map();
      group = this.#gpu.createBindGroup({ label, layout, entries: bindings.map((resource, binding) => ({ binding, resource })) });
      this.#groups.set(key, group);
    }
    return group;
  }

  #id(o: object): number {
    let id = this.#ids.get(o);
    if (id === undefined) {
      id = ++this.#nextId;
      this.#ids.set(o, id);
    }
    return id;
  }
}
