/**
 * web-llm's failures as BatonErrors. web-llm throws its own Error classes (told apart by `name`; only
 * a few are exported), browser errors (TypeError from fetch, DOMException), and, through
 * WebWorkerMLCEngine, plain strings: its worker handler posts `err.toString()`, i.e. "Name: message".
 * So this reads a name and a message from any of them and maps on those.
 */
import { BatonError, type BatonErrorCode } from '../../../core/errors/index.ts';

interface Described {
  name: string;
  message: string;
}

function describe(e: unknown): Described {
  if (e instanceof Error) return { name: e.name, message: e.message };
  if (typeof e === 'object' && e !== null && 'name' in e && 'message' in e) {
    return { name: String(e.name), message: String(e.message) };
  }
  const text = String(e);
  const named = /^([A-Za-z][\w$]*(?:Error|Exception)):\s*([\s\S]*)$/.exec(text);
  return named ? { name: named[1], message: named[2] } : { name: '', message: text };
}

const NO_WEBGPU = new Set(['WebGPUNotAvailableError', 'WebGPUNotFoundError']);
const NOT_LOADED = new Set(['ModelNotLoadedError', 'WorkerEngineModelNotLoadedError', 'EngineNotLoadedError']);
const OUT_OF_MEMORY = /out of memory|\bOOM\b|allocation failed|failed to allocate/i;
const DEVICE_LOST = /device (?:was |is )?lost/i;
const FETCH_FAILED = /failed to fetch|fetch failed|networkerror|load failed|request failed|cannot fetch|network response was not ok|unable to fetch/i;

function make(code: BatonErrorCode, message: string, cause: unknown, d: Described, isRetryable = false): BatonError {
  return new BatonError({ code, message, cause, isRetryable, data: { ...(d.name ? { webllm: d.name } : {}), detail: d.message } });
}

/** Any web-llm failure as a BatonError whose message says what to do next. */
export function toWebllmError(e: unknown): BatonError {
  if (e instanceof BatonError) return e;
  const d = describe(e);
  if (d.name === 'AbortError') return make('run/aborted', 'Stopped.', e, d);
  if (NO_WEBGPU.has(d.name)) {
    return make(
      'engine/no-adapter',
      'This browser gives web-llm no WebGPU adapter. Use a browser with WebGPU turned on (recent Chrome or Edge), or choose the demo or a remote Conductor.',
      e,
      d,
    );
  }
  if (d.name === 'ShaderF16SupportError') {
    return make('engine/unsupported', 'This GPU lacks shader-f16, which f16 models need. Choose a q4f32_1 model on the Conductor page.', e, d);
  }
  if (d.name === 'FeatureSupportError') {
    return make('engine/unsupported', `This GPU lacks a WebGPU feature the model needs (${d.message}). Choose another model on the Conductor page.`, e, d);
  }
  // web-llm raises DeviceLostError when the device is lost while it loads, which in practice means the
  // model did not fit in GPU memory.
  if (d.name === 'DeviceLostError' || OUT_OF_MEMORY.test(d.message) || d.name === 'GPUOutOfMemoryError') {
    return make('engine/out-of-memory', 'The GPU ran out of memory for this model. Close other GPU-heavy tabs or choose a smaller model.', e, d, true);
  }
  if (DEVICE_LOST.test(d.message)) {
    return make('engine/device-lost', 'The GPU was reset while web-llm ran (driver reset or memory pressure). Load the model again.', e, d, true);
  }
  if (/maxStorageBufferBindingSize|maxBufferSize/.test(d.message)) {
    return make('engine/unsupported', "This GPU's buffer limits are below what web-llm needs. Choose Baton's engine or a remote Conductor.", e, d);
  }
  if (/\b(?:caches|indexedDB) is not defined/.test(d.message)) {
    return make('store/io', "This page cannot use the browser's storage for models (it needs https or localhost, outside private browsing).", e, d);
  }
  if (d.name === 'QuotaExceededError') {
    return make('store/quota', 'The browser has no room left to store the model. Delete cached models on the Conductor page, or choose a smaller one.', e, d);
  }
  if (d.name === 'ModelNotFoundError') {
    return make('data/not-found', 'web-llm has no record of this model. Choose a model from the list on the Conductor page.', e, d);
  }
  if (NOT_LOADED.has(d.name)) {
    return make('run/config', 'The web-llm model is not loaded (its worker may have restarted). Load it again on the Conductor page.', e, d, true);
  }
  if (d.name === 'ContextWindowSizeExceededError') {
    return make(
      'run/config',
      `The Conductor prompt is longer than this model's context window (${d.message.split('\n')[0]}). Use fewer workers or a model with a larger window.`,
      e,
      d,
    );
  }
  const status = /\b(?:status:? )?(404|403|410)\b/.exec(d.message);
  if (status && FETCH_FAILED.test(d.message)) {
    return make(
      'data/not-found',
      `A model file is missing on the server (HTTP ${status[1]}). This web-llm version may no longer be served; choose another model or update Baton.`,
      e,
      d,
    );
  }
  if (FETCH_FAILED.test(d.message)) {
    return make(
      'provider/network',
      "Could not download the model's files (from huggingface.co and raw.githubusercontent.com). Check that you are online and that no extension, proxy or CORS policy blocks them, then try again.",
      e,
      d,
      true,
    );
  }
  // Nothing above knew it: a failure Baton did not expect of web-llm.
  return make('internal', `web-llm failed: ${d.message || d.name}`, e, d);
}
