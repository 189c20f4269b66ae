/**
 * Cuts what Python could reach outside its in-memory file system, below the driver's module blocks:
 * - sockets: Emscripten's socket layer (which in Node opens real WebSocket connections) refuses to
 *   connect, bind, listen or send, so socket, urllib and http.client fail with PermissionError;
 * - this thread's network and code-loading globals (fetch, XMLHttpRequest, WebSocket, importScripts);
 * - the `pyodide_js` module (Pyodide's API: mountNodeFS, loadPackage), unregistered so that even a program
 *   that undoes the driver's blocks cannot import it;
 * - eval, which Emscripten's emscripten_run_script calls: the way from compiled code back to JavaScript
 *   (through ctypes); a program that gets there crashes its thread, which the host replaces.
 * Pyodide itself needs none of these once loaded. Host files need nothing cut: Pyodide mounts no host
 * folder unless asked (mountNodeFS, which only pyodide_js offers).
 */
import type { PyodideAPI } from 'pyodide';

// Emscripten's errno numbering (WASI's), not the host's.
const EACCES = 2;

const HOST_GLOBALS = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts'];

interface EmscriptenModule {
  SOCKFS: { websocket_sock_ops: Record<string, (...args: unknown[]) => unknown> };
  FS: { ErrnoError: new (errno: number) => Error };
}

export function cutHostAccess(pyodide: PyodideAPI): void {
  const module = (pyodide as unknown as { _module: EmscriptenModule })._module;
  const refuse = () => {
    throw new module.FS.ErrnoError(EACCES);
  };
  for (const op of ['connect', 'bind', 'listen', 'sendmsg']) module.SOCKFS.websocket_sock_ops[op] = refuse;
  pyodide.unregisterJsModule('pyodide_js');
  const scope = globalThis as Record<string, unknown>;
  for (const name of HOST_GLOBALS) {
    if (name in scope) Object.defineProperty(scope, name, { value: undefined, configurable: false, writable: false });
  }
  Object.defineProperty(scope, 'eval', {
    value: () => {
      throw new Error('eval is disabled in the Python sandbox');
    },
    configurable: false,
    writable: false,
  });
}
