/**
 * Cuts, at the JavaScript level and once Pyodide has loaded, whatever Python could reach outside its
 * in-memory file system. Python-level blocks alone do not hold (a program can undo them), so this assumes a
 * program may get any JavaScript object Pyodide hands it (a JsProxy from `_pyodide_core.to_js`, say) and
 * walk from it:
 * - sockets: Emscripten's socket layer (which in Node opens real WebSocket connections) refuses to
 *   connect, bind, listen or send, so socket, urllib and http.client fail with PermissionError;
 * - the `js` and `pyodide_js` modules (this thread's globals and Pyodide's API: mountNodeFS, loadPackage),
 *   unregistered, so that even a program that undoes the driver's blocks cannot import them;
 * - this thread's network and code-loading globals (fetch, XMLHttpRequest, WebSocket, importScripts) and
 *   `require`, which pyodide.mjs sets in Node to {fs, crypto, ws, child_process};
 * - compiling code from strings: eval (which Emscripten's emscripten_run_script calls, through ctypes) and
 *   the constructors of every kind of function (`x.constructor.constructor('...')`) throw;
 * - in Node, process's ways to the host's modules and native code (getBuiltinModule, binding,
 *   _linkedBinding, dlopen).
 * Pyodide itself needs none of these once loaded. Host files need nothing more: Pyodide mounts no host
 * folder unless asked (mountNodeFS, which only pyodide_js offers). Host processes are cut by the Node
 * thread's entry (src/node/sandbox/sandbox-thread.ts): Emscripten's system() reaches child_process through a
 * require of its own, which nothing here can take away.
 */
import type { PyodideAPI } from 'pyodide';

// Emscripten's errno numbering (WASI's), not the host's.
const EACCES = 2;

const HOST_GLOBALS = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'require'];
const PROCESS_GATES = ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen'];

interface EmscriptenModule {
  SOCKFS: { websocket_sock_ops: Record<string, (...args: unknown[]) => unknown> };
  FS: { ErrnoError: new (errno: number) => Error };
}

const refused = (what: string) =>
  function () {
    throw new Error(`${what} is disabled in the Python sandbox`);
  };

/** Replaces `object[name]` for good: not writable, not configurable. */
function seal(object: object, name: string, value: unknown): void {
  Object.defineProperty(object, name, { value, configurable: false, writable: false });
}

export function cutHostAccess(pyodide: PyodideAPI): void {
  const module = (pyodide as unknown as { _module: EmscriptenModule })._module;
  const refuse = () => {
    throw new module.FS.ErrnoError(EACCES);
  };
  for (const op of ['connect', 'bind', 'listen', 'sendmsg']) module.SOCKFS.websocket_sock_ops[op] = refuse;
  pyodide.unregisterJsModule('pyodide_js');
  pyodide.unregisterJsModule('js');
  const scope = globalThis as Record<string, unknown>;
  for (const name of HOST_GLOBALS) {
    if (name in scope) seal(scope, name, undefined);
  }
  seal(scope, 'eval', refused('eval'));
  const functionKinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const kind of functionKinds) {
    const prototype = Object.getPrototypeOf(kind) as object;
    // Keeps `prototype`, so `f instanceof Function` (which Pyodide asks) still holds.
    const compile = Object.assign(refused('compiling code (a function constructor)'), { prototype });
    seal(prototype, 'constructor', compile);
    if (kind === functionKinds[0]) seal(scope, 'Function', compile);
  }
  const process = scope.process as Record<string, unknown> | undefined;
  if (process) for (const name of PROCESS_GATES) seal(process, name, refused(`process.${name}`));
}
