export { DEFAULT_MEMORY_MB, PythonSandbox } from './python-sandbox.ts';
export type { SandboxOptions } from './python-sandbox.ts';
export { SandboxService } from './sandbox-service.ts';
