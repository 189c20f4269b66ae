/**
 * The contract between a kernel module and the device layer (webgpu-torch's KernelSpec, reduced):
 * a kernel names its storage bindings and its scalar uniforms, gives its WGSL for a set of options
 * and its workgroup grid as a function of the uniforms (which carry the shapes). The device builds
 * layouts, uniform buffers and bind groups from this alone; kernels own no GPU objects.
 *
 * Layout convention: storage bindings are @binding(0..n-1) of @group(0) in the order listed, the
 * uniform struct `Params` is @binding(n). Uniform members are 4-byte scalars, packed in order.
 */
type BindingAccess = 'read' | 'read_write';

export interface BindingSpec<B extends string = string> {
  readonly name: B;
  readonly access: BindingAccess;
}

export interface UniformSpec<U extends string = string> {
  readonly name: U;
  readonly type: 'u32' | 'f32';
}

export type Grid = readonly [number, number, number];

export interface KernelSpec<O, B extends string, U extends string> {
  readonly name: string;
  readonly bindings: readonly BindingSpec<B>[];
  readonly uniforms: readonly UniformSpec<U>[];
  wgsl(options: O): string;
  /** Workgroups to dispatch for these uniform values (shapes). */
  grid(uniforms: Readonly<Record<U, number>>, options: O): Grid;
}

/** A buffer bound to a kernel: the whole buffer, or a byte range of it. */
export type BufferArg = GPUBuffer | { buffer: GPUBuffer; offset?: number; size?: number };
