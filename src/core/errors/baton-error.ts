/**
 * The one error type Baton throws across module and worker boundaries.
 * Callers match on `code`, never on message text; `message` says what to do next.
 */
export type BatonErrorCode =
  // a bug: something Baton's own code did not expect (the message says so; nothing the user set caused it)
  | 'internal'
  // workflow
  | 'workflow/parse'
  // providers and worker calls
  | 'provider/auth'
  | 'provider/unknown-model'
  | 'provider/rate-limit'
  | 'provider/server'
  | 'provider/network'
  | 'provider/cors'
  | 'provider/timeout'
  | 'provider/bad-request'
  | 'provider/empty-answer'
  | 'provider/unknown-question'
  | 'provider/unsupported'
  // run control
  | 'run/aborted'
  | 'run/budget'
  | 'run/config'
  // storage
  | 'store/quota'
  | 'store/corrupt'
  | 'store/io'
  // data
  | 'data/invalid'
  | 'data/not-found'
  | 'data/unreachable'
  // engine
  | 'engine/no-adapter'
  | 'engine/device-lost'
  | 'engine/gpu'
  | 'engine/model-file'
  | 'engine/unsupported'
  | 'engine/out-of-memory';

export interface BatonErrorInit {
  code: BatonErrorCode;
  message: string;
  data?: Record<string, unknown>;
  cause?: unknown;
  isRetryable?: boolean;
}

export class BatonError extends Error {
  readonly code: BatonErrorCode;
  readonly data?: Record<string, unknown>;
  readonly isRetryable: boolean;

  constructor(init: BatonErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'BatonError';
    this.code = init.code;
    this.data = init.data;
    this.isRetryable = init.isRetryable ?? false;
  }

  /** Plain, structured-clone-safe form (for comlink transfer and episode records). */
  toJSON(): { code: BatonErrorCode; message: string; data?: Record<string, unknown> } {
    return { code: this.code, message: this.message, ...(this.data ? { data: this.data } : {}) };
  }

  static is(e: unknown, code?: BatonErrorCode): e is BatonError {
    return e instanceof BatonError && (code === undefined || e.code === code);
  }
}

/**
 * Any thrown value as a BatonError, keeping a BatonError as it is. A caller that knows what can fail there
 * names the code (a storage call: 'store/io'); otherwise whatever was thrown is a bug, and says so, so that
 * it never reads as a setting the user got wrong.
 */
export function toBatonError(e: unknown, fallback: BatonErrorCode = 'internal'): BatonError {
  if (e instanceof BatonError) return e;
  if (e instanceof Error && e.name === 'AbortError') {
    return new BatonError({ code: 'run/aborted', message: 'Stopped.', cause: e });
  }
  const text = e instanceof Error ? e.message : String(e);
  const message = fallback === 'internal' ? `Unexpected error inside Baton (a bug; please report it): ${text}` : text;
  return new BatonError({ code: fallback, message, cause: e });
}
