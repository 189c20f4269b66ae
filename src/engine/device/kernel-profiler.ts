/**
 * GPU time per kernel, for benchmarks. While a profiler is attached to a device (and the device
 * has 'timestamp-query'), each dispatch of a batch runs in a compute pass of its own with
 * timestamps written at its start and end, and the batch's submit waits for them. A pass per
 * dispatch costs a little, so profiled passes run slower than plain ones: the split between
 * kernels is what this is for. Dispatches are named by kernel, and by N where the kernel has it
 * (the matmuls: the LM head apart from the projections).
 */
import { BufferUsage, MapMode } from './usage.ts';

export interface KernelTime {
  readonly name: string;
  readonly ms: number;
  readonly count: number;
}

export class KernelProfiler {
  readonly #totals = new Map<string, { ns: number; count: number }>();

  /** A timestamp query set for `dispatches` dispatches and a way to read it back once submitted. */
  begin(
    gpu: GPUDevice,
    dispatches: number,
  ): { querySet: GPUQuerySet; resolve(encoder: GPUCommandEncoder): void; collect(names: readonly string[]): Promise<void> } {
    const count = 2 * dispatches;
    const querySet = gpu.createQuerySet({ type: 'timestamp', count });
    const resolved = gpu.createBuffer({ size: 8 * count, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
    const readback = gpu.createBuffer({ size: 8 * count, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    return {
      querySet,
      resolve: (encoder) => {
        encoder.resolveQuerySet(querySet, 0, count, resolved, 0);
        encoder.copyBufferToBuffer(resolved, 0, readback, 0, 8 * count);
      },
      collect: async (names) => {
        await readback.mapAsync(MapMode.READ);
        const stamps = new BigUint64Array(readback.getMappedRange().slice(0));
        readback.unmap();
        names.forEach((name, i) => {
          const total = this.#totals.get(name) ?? { ns: 0, count: 0 };
          total.ns += Number(stamps[2 * i + 1] - stamps[2 * i]);
          total.count++;
          this.#totals.set(name, total);
        });
        for (const b of [resolved, readback]) b.destroy();
        querySet.destroy();
      },
    };
  }

  /** Totals since the last reset, slowest first. */
  report(): KernelTime[] {
    return [...this.#totals].map(([name, t]) => ({ name, ms: t.ns / 1e6, count: t.count })).sort((a, b) => b.ms - a.ms);
  }

  reset(): void {
    this.#totals.clear();
  }
}
