/**
 * Calls the page's Content-Security-Policy refused. The browser refuses a call to an origin missing from
 * connect-src with the same opaque network error as a server that refuses web pages (CORS), so the provider's
 * message would blame the server. The page knows which origins its policy lacks (those the user added since it
 * loaded) and names them in the run's request; a refused call to one says that a reload allows it, in the turn
 * as it happens and in the episode stored, and is not retryable, since only the reload helps.
 */
import { BatonError } from '../../errors/index.ts';
import type { WorkerModel, WorkerSpec } from '../types.ts';

/** The codes of a call the browser refused before it left the page (what a blocked origin looks like). */
const REFUSED_CALL_CODES: readonly string[] = ['provider/cors', 'provider/network', 'engine/model-file'];

const isUrl = (text: string | undefined): text is string => /^https?:\/\//i.test(text ?? '');

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The URLs a worker reaches: its base URL, and an engine worker's model or adapter where a URL names it. */
export function workerUrls(spec: WorkerSpec): string[] {
  return [...(spec.baseUrl ? [spec.baseUrl] : []), ...(spec.provider === 'engine' ? [spec.model, spec.adapter].filter(isUrl) : [])];
}

/** The origins of `blocked` that one of `urls` is on. */
const blockedAmong = (urls: readonly string[], blocked: readonly string[]) => blocked.filter((origin) => urls.some((u) => originOf(u) === origin));

/** `error` reworded when the policy blocked it (a refused call's code, to a URL on a `blocked` origin), else `error` itself. */
export function explainBlockedCall(error: BatonError, urls: readonly string[], blocked: readonly string[]): BatonError {
  const hit = blockedAmong(urls, blocked);
  if (hit.length === 0 || !REFUSED_CALL_CODES.includes(error.code)) return error;
  const [them, these, were] = hit.length === 1 ? ['it', 'this one', 'was'] : ['them', 'these', 'were'];
  const message =
    `This page blocked the call to ${hit.join(', ')}: it connects only to the servers it was opened with, and ${these} ` +
    `${were} added since. Reload the page to allow ${them}; your pool, settings and episodes are kept.`;
  return new BatonError({ code: error.code, message, ...(error.data ? { data: error.data } : {}), cause: error });
}

/** `worker`, whose refused calls say so when the page's policy blocks one of its URLs' origins. */
export function blockedByPage(worker: WorkerModel, blocked: readonly string[]): WorkerModel {
  const urls = workerUrls(worker.spec);
  if (blockedAmong(urls, blocked).length === 0) return worker;
  return {
    spec: worker.spec,
    supportsPrefill: worker.supportsPrefill,
    call: (request) =>
      worker.call(request).catch((e: unknown) => {
        throw e instanceof BatonError ? explainBlockedCall(e, urls, blocked) : e;
      }),
  };
}
