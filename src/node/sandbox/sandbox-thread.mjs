// A worker thread inherits no module loader (and Node 20 takes no --import for one): this plain module
// registers tsx in the thread, then runs the TypeScript entry. Spawned by node-code-runner.ts.
import { register } from 'tsx/esm/api';

register();
await import('./sandbox-thread.ts');
