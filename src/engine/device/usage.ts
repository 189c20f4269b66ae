/**
 * WebGPU's buffer-usage and map-mode bits, spelled out so the engine never reads the
 * `GPUBufferUsage` / `GPUMapMode` globals (Dawn under Node does not install them).
 * Values are fixed by the WebGPU specification.
 */
export const BufferUsage = {
  MAP_READ: 0x1,
  MAP_WRITE: 0x2,
  COPY_SRC: 0x4,
  COPY_DST: 0x8,
  UNIFORM: 0x40,
  STORAGE: 0x80,
  QUERY_RESOLVE: 0x200,
} as const;

export const MapMode = { READ: 0x1, WRITE: 0x2 } as const;

/** Usage of every storage buffer the engine makes: bound to kernels, written from the CPU, copied and read back. */
export const STORAGE_USAGE = BufferUsage.STORAGE | BufferUsage.COPY_DST | BufferUsage.COPY_SRC;
