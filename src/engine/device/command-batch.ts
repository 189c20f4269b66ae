/**
 * Kernel dispatches and buffer copies recorded in order and submitted as one command buffer, so a
 * whole forward pass costs one submit. Uniform values of all dispatches go into one ring buffer at
 * aligned offsets; bind groups come from the device's cache at submit, made from each kernel's spec
 * when first seen.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { EngineDevice } from './device.ts';
import type { BufferBinding } from './bind-group-cache.ts';
import type { BufferArg, KernelSpec } from './kernel-spec.ts';

interface Dispatch {
  kind: 'dispatch';
  kernel: KernelSpec<unknown, string, string>;
  options: unknown;
  buffers: Record<string, BufferArg>;
  uniforms: Record<string, number>;
}

interface Copy {
  kind: 'copy';
  src: GPUBuffer;
  srcOffset: number;
  dst: GPUBuffer;
  dstOffset: number;
  size: number;
}

export class CommandBatch {
  readonly #device: EngineDevice;
  readonly #label: string;
  #ops: (Dispatch | Copy)[] = [];

  constructor(device: EngineDevice, label: string) {
    this.#device = device;
    this.#label = label;
  }

  run<O, B extends string, U extends string>(kernel: KernelSpec<O, B, U>, options: O, buffers: Record<B, BufferArg>, uniforms: Record<U, number>): this {
    this.#ops.push({ kind: 'dispatch', kernel: kernel as unknown as Dispatch['kernel'], options, buffers, uniforms });
    return this;
  }

  /** Byte offsets and size must be multiples of 4. */
  copy(src: GPUBuffer, srcOffset: number, dst: GPUBuffer, dstOffset: number, size: number): this {
    this.#ops.push({ kind: 'copy', src, srcOffset, dst, dstOffset, size });
    return this;
  }

  async submit(): Promise<void> {
    const device = this.#device;
    device.check();
    const gpu = device.gpu;
    const dispatches = this.#ops.filter((op): op is Dispatch => op.kind === 'dispatch');
    const resolved = dispatches.map((d) => ({ d, cached: device.pipelines.get(d.kernel, d.options) }));
    await device.pipelines.settle();

    const slot = Math.max(256, device.caps.minUniformBufferOffsetAlignment);
    const uniformBytes = new ArrayBuffer(Math.max(slot, dispatches.length * slot));
    const view = new DataView(uniformBytes);
    const uniformBuffer = device.uniformBuffer(uniformBytes.byteLength);
    const bindGroups = new Map<Dispatch, GPUBindGroup>();
    const maxBinding = Math.floor(device.caps.maxStorageBufferBindingSize / 4) * 4;
    resolved.forEach(({ d, cached }, i) => {
      d.kernel.uniforms.forEach((u, k) => {
        const value = d.uniforms[u.name];
        if (value === undefined || !Number.isFinite(value)) {
          throw new BatonError({ code: 'engine/gpu', message: `Kernel ${d.kernel.name}: uniform ${u.name} is ${value}; this is an engine bug.` });
        }
        if (u.type === 'u32') view.setUint32(i * slot + 4 * k, value, true);
        else view.setFloat32(i * slot + 4 * k, value, true);
      });
      const bindings: BufferBinding[] = d.kernel.bindings.map((b) => {
        const arg = d.buffers[b.name];
        if (!arg) throw new BatonError({ code: 'engine/gpu', message: `Kernel ${d.kernel.name}: binding ${b.name} missing; this is an engine bug.` });
        if ('buffer' in arg) return { buffer: arg.buffer, offset: arg.offset ?? 0, size: arg.size ?? arg.buffer.size - (arg.offset ?? 0) };
        // Pooled buffers are rounded up to a size class: never bind past the device's limit.
        return { buffer: arg, offset: 0, size: Math.min(arg.size, maxBinding) };
      });
      bindings.push({ buffer: uniformBuffer, offset: i * slot, size: 4 * Math.max(4, d.kernel.uniforms.length) });
      bindGroups.set(d, device.bindGroups.get(d.kernel.name, cached.layout, bindings));
    });
    gpu.queue.writeBuffer(uniformBuffer, 0, uniformBytes);

    const pipelineOf = new Map(resolved.map(({ d, cached }) => [d, cached.pipeline]));
    const maxGroups = device.caps.maxComputeWorkgroupsPerDimension;
    const encoder = gpu.createCommandEncoder({ label: this.#label });
    const profile = device.caps.timestampQuery ? device.profiler?.begin(gpu, dispatches.length) : undefined;
    const profiled: string[] = [];
    let pass: GPUComputePassEncoder | undefined;
    for (const op of this.#ops) {
      if (op.kind === 'copy') {
        pass?.end();
        pass = undefined;
        encoder.copyBufferToBuffer(op.src, op.srcOffset, op.dst, op.dstOffset, op.size);
        continue;
      }
      const grid = op.kernel.grid(op.uniforms, op.options);
      if (grid.some((n) => n > maxGroups)) {
        throw new BatonError({
          code: 'engine/unsupported',
          message: `Kernel ${op.kernel.name} needs a ${grid.join('x')} grid, above this GPU's ${maxGroups} per dimension; use a shorter input.`,
          data: { kernel: op.kernel.name, grid: [...grid] },
        });
      }
      if (grid.some((n) => n === 0)) continue;
      if (profile) {
        const i = profiled.push(op.uniforms.N === undefined ? op.kernel.name : `${op.kernel.name} N=${op.uniforms.N}`) - 1;
        pass = encoder.beginComputePass({
          label: this.#label,
          timestampWrites: { querySet: profile.querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 },
        });
      }
      pass ??= encoder.beginComputePass({ label: this.#label });
      pass.setPipeline(pipelineOf.get(op)!);
      pass.setBindGroup(0, bindGroups.get(op)!);
      pass.dispatchWorkgroups(grid[0], grid[1], grid[2]);
      device.dispatches++;
      if (profile) {
        pass.end();
        pass = undefined;
      }
    }
    pass?.end();
    profile?.resolve(encoder);
    gpu.queue.submit([encoder.finish()]);
    this.#ops = [];
    await profile?.collect(profiled);
  }
}
