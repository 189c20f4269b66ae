// The WebGPU type declarations (GPUDevice, GPUBuffer, ...): TypeScript's DOM lib does not ship them yet.
/// <reference types="@webgpu/types" />
