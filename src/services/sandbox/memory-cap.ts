/**
 * The sandbox's memory limit. Pyodide's heap is WebAssembly memory, which neither a Node worker's
 * resourceLimits (JavaScript heap only) nor a browser bounds below 4 GiB. Emscripten grows it by calling
 * `memory.grow()` from JavaScript and treats a throw as "out of memory": malloc returns NULL and Python
 * raises MemoryError. So refusing growth past the cap makes a memory bomb an ordinary MemoryError.
 */
const PAGE_BYTES = 65_536;

/** Caps every WebAssembly memory of this thread at `maxBytes`; call once, before loading Pyodide. */
export function capWasmMemory(maxBytes: number): void {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number): number {
    if (this.buffer.byteLength + pages * PAGE_BYTES > maxBytes) {
      throw new RangeError(`WebAssembly memory past the sandbox's limit of ${Math.round(maxBytes / 2 ** 20)} MiB`);
    }
    return grow.call(this, pages);
  };
}
