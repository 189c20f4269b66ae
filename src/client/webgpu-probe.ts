/** What this browser offers for running models in the tab, read once for the Conductor page. */
export type WebGpuProbe =
  | { available: false; reason: 'no-api' | 'no-adapter' }
  | { available: true; vendor: string; architecture: string; f16: boolean; maxBufferMiB: number; software: boolean };

export async function probeWebGpu(): Promise<WebGpuProbe> {
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) return { available: false, reason: 'no-api' };
  const adapter = await gpu.requestAdapter().catch(() => null);
  if (!adapter) return { available: false, reason: 'no-adapter' };
  const info = adapter.info;
  return {
    available: true,
    vendor: info.vendor || 'unknown',
    architecture: info.architecture || 'unknown',
    f16: adapter.features.has('shader-f16'),
    maxBufferMiB: Math.round(adapter.limits.maxBufferSize / 2 ** 20),
    // SwiftShader (and similar) run WebGPU on the CPU: it works, slowly.
    software: /swiftshader|llvmpipe|lavapipe/i.test(`${info.vendor} ${info.architecture} ${info.description}`) || info.isFallbackAdapter === true,
  };
}
