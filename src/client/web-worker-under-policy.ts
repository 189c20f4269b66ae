import { wrap, type Remote } from 'comlink';

/**
 * A module web worker that runs under the page's Content-Security-Policy. A worker loaded from its own URL
 * takes its policy from that script's response headers, and a static host sends none, so the page's
 * <meta> policy (connect-src included) would not reach it; a blob: worker inherits the page's policy,
 * and its one line imports the real script (script-src 'self' allows it).
 */
export function webWorkerUnderPagePolicy(scriptUrl: string, options: WorkerOptions = {}): Worker {
  const absolute = new URL(scriptUrl, location.href).href;
  // Not revoked: the worker fetches the blob after the constructor returns, and it is one small string.
  const shim = URL.createObjectURL(new Blob([`import ${JSON.stringify(absolute)};\n`], { type: 'text/javascript' }));
  return new Worker(shim, { ...options, type: 'module' });
}

/** A typed handle on the service of a web worker (under the page's policy) that starts on the handle's first use. */
export function serviceOnFirstUse<T>(scriptUrl: string, name: string): () => Remote<T> {
  let service: Remote<T> | undefined;
  return () => (service ??= wrap<T>(webWorkerUnderPagePolicy(scriptUrl, { name })));
}
