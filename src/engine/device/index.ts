export { createEngineDevice, EngineDevice } from './device.ts';
export { CommandBatch } from './command-batch.ts';
export { KernelProfiler, type KernelTime } from './kernel-profiler.ts';
export { MemoryMeter } from './memory-meter.ts';
export type { Capabilities } from './capabilities.ts';
export type { BindingSpec, BufferArg, Grid, KernelSpec, UniformSpec } from './kernel-spec.ts';
export { BufferUsage, MapMode, STORAGE_USAGE } from './usage.ts';
