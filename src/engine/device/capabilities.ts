/**
 * What the adapter can do, read once when the device is made and frozen: kernels and the model
 * runtime decide storage dtype and tensor splitting from this, never from the live device.
 */
export interface Capabilities {
  /** WGSL `enable f16;` is allowed (the device was created with 'shader-f16'). */
  readonly shaderF16: boolean;
  /** GPU timestamps can be written (the device was created with 'timestamp-query'). */
  readonly timestampQuery: boolean;
  /** Largest byte range one storage binding may cover. */
  readonly maxStorageBufferBindingSize: number;
  readonly maxBufferSize: number;
  readonly maxComputeWorkgroupsPerDimension: number;
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupStorageSize: number;
  readonly maxStorageBuffersPerShaderStage: number;
  readonly minUniformBufferOffsetAlignment: number;
  readonly adapter: { readonly vendor: string; readonly architecture: string; readonly description: string };
  /** The adapter is a CPU implementation (SwiftShader, llvmpipe): kernels pick CPU-friendly layouts. */
  readonly software: boolean;
}

/** The limits worth raising above WebGPU's defaults: a 0.5B model's embedding alone exceeds the default binding size. */
const RAISED_LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxStorageBuffersPerShaderStage',
] as const;

/** requiredLimits asking for everything the adapter offers on the limits the engine depends on. */
export function raisedLimits(adapter: GPUAdapter): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) limits[name] = adapter.limits[name];
  return limits;
}

export function readCapabilities(device: GPUDevice, info?: GPUAdapterInfo): Capabilities {
  const l = device.limits;
  return Object.freeze({
    shaderF16: device.features.has('shader-f16'),
    timestampQuery: device.features.has('timestamp-query'),
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxBufferSize: l.maxBufferSize,
    maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    minUniformBufferOffsetAlignment: l.minUniformBufferOffsetAlignment,
    adapter: Object.freeze({
      vendor: info?.vendor ?? '',
      architecture: info?.architecture ?? '',
      description: info?.description ?? '',
    }),
    software: isSoftwareAdapter(info),
  });
}

/** SwiftShader names itself in architecture; Mesa's llvmpipe and lavapipe in the description. */
function isSoftwareAdapter(info: GPUAdapterInfo | undefined): boolean {
  const text = `${info?.architecture ?? ''} ${info?.description ?? ''}`.toLowerCase();
  return /swiftshader|llvmpipe|lavapipe|software/.test(text);
}
