/**
 * Bytes of GPU memory the engine holds, counted at the one place buffers are made and freed
 * (EngineDevice.createBuffer / free): WebGPU reports no memory use of its own. `peak` is what a
 * benchmark reports; `resetPeak` starts a new measurement from what is held now.
 */
export class MemoryMeter {
  readonly #sizes = new Map<GPUBuffer, number>();
  #current = 0;
  #peak = 0;

  get current(): number {
    return this.#current;
  }

  get peak(): number {
    return this.#peak;
  }

  allocated(buffer: GPUBuffer): void {
    if (this.#sizes.has(buffer)) return;
    this.#sizes.set(buffer, buffer.size);
    this.#current += buffer.size;
    this.#peak = Math.max(this.#peak, this.#current);
  }

  freed(buffer: GPUBuffer): void {
    const size = this.#sizes.get(buffer);
    if (size === undefined) return;
    this.#sizes.delete(buffer);
    this.#current -= size;
  }

  resetPeak(): void {
    this.#peak = this.#current;
  }
}
