/**
 * What the page sees of the Python sandbox (through src/client): the service's type, whose runs take core/reward's
 * PythonJob and return its PythonRun.
 */
export type { SandboxService } from './sandbox-service.ts';
