/**
 * The JavaScript-level cuts, checked from JavaScript in a real worker thread that loaded Pyodide: whatever
 * a program might reach from a JsProxy (a function's constructor, `require`, process's ways to native
 * code) no longer compiles code or reaches the host, and Python still runs.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
import('tsx/esm/api').then(async ({ register }) => {
  register();
  const { PythonSandbox } = await import(workerData.module);
  const sandbox = await PythonSandbox.load({ indexURL: workerData.indexURL });
  const attempt = (f) => { try { return 'reached: ' + typeof f(); } catch (e) { return 'refused: ' + e.message; } };
  parentPort.postMessage({
    Function: attempt(() => [].constructor.constructor('return process')()),
    AsyncFunction: attempt(() => (async () => {}).constructor('return process')),
    GeneratorFunction: attempt(() => function* () {}.constructor('return process')),
    AsyncGeneratorFunction: attempt(() => async function* () {}.constructor('return process')),
    globalFunction: attempt(() => Function('return process')()),
    eval: attempt(() => eval('process')),
    require: typeof globalThis.require,
    getBuiltinModule: attempt(() => process.getBuiltinModule('fs')),
    binding: attempt(() => process.binding('fs')),
    linkedBinding: attempt(() => process._linkedBinding('x')),
    dlopen: attempt(() => process.dlopen({}, '/x')),
    isFunction: (() => {}) instanceof Function,
    python: sandbox.run({ code: 'print(sum(range(10)))' }).stdout,
  });
});
`;

it('cuts code compilation, require and process gates in the thread, and Python still runs', async () => {
  const worker = new Worker(THREAD, {
    eval: true,
    env: {},
    workerData: {
      module: new URL('../../../../src/services/sandbox/python-sandbox.ts', import.meta.url).href,
      indexURL: `${dirname(createRequire(import.meta.url).resolve('pyodide'))}/`,
    },
  });
  const seen = await new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const compile = 'refused: compiling code (a function constructor) is disabled in the Python sandbox';
  expect(seen).toEqual({
    Function: compile,
    AsyncFunction: compile,
    GeneratorFunction: compile,
    AsyncGeneratorFunction: compile,
    globalFunction: compile,
    eval: 'refused: eval is disabled in the Python sandbox',
    require: 'undefined',
    getBuiltinModule: 'refused: process.getBuiltinModule is disabled in the Python sandbox',
    binding: 'refused: process.binding is disabled in the Python sandbox',
    linkedBinding: 'refused: process._linkedBinding is disabled in the Python sandbox',
    dlopen: 'refused: process.dlopen is disabled in the Python sandbox',
    isFunction: true,
    python: '45\n',
  });
}, 60_000);
