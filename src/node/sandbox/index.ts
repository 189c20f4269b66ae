/** Code grading's Python sandbox under Node: Pyodide in worker threads (sandbox-thread.mjs is their entry). */
export { createNodeCodeRunner } from './node-code-runner.ts';
