import { describe, expect, it } from 'vitest';
import { toWebllmError } from '../../../../../src/services/runtimes/webllm/index.ts';
import { BatonError } from '../../../../../src/core/errors/index.ts';

/** An error as web-llm builds it: its own class name, its own message. */
function webllm(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

const SHADER_F16 =
  'This model requires WebGPU extension shader-f16, which is not enabled in this browser. You can try to launch Chrome Canary in command line with flag "--enable-dawn-features=allow_unsafe_apis".';
const DEVICE_LOST =
  'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM). To resolve this, try reloading with a model that has fewer parameters or uses a smaller context length.';

describe('toWebllmError', () => {
  it.each([
    ['no WebGPU', webllm('WebGPUNotAvailableError', 'WebGPU is not supported in your current environment'), 'engine/no-adapter', false],
    ['no WebGPU adapter found', webllm('WebGPUNotFoundError', 'Cannot find WebGPU in the environment'), 'engine/no-adapter', false],
    ['shader-f16 missing', webllm('ShaderF16SupportError', SHADER_F16), 'engine/unsupported', false],
    [
      'another feature missing',
      webllm('FeatureSupportError', 'This model requires feature subgroups, which is not yet supported by this browser.'),
      'engine/unsupported',
      false,
    ],
    ['device lost while loading (out of memory)', webllm('DeviceLostError', DEVICE_LOST), 'engine/out-of-memory', true],
    ['a failed GPU allocation', new RangeError('Array buffer allocation failed'), 'engine/out-of-memory', true],
    ['device lost later', webllm('OperationError', 'Device is lost'), 'engine/device-lost', true],
    [
      'small buffer limits',
      new Error('Cannot initialize runtime because of requested maxStorageBufferBindingSize exceeds limit. requested=128MB, limit=64MB. '),
      'engine/unsupported',
      false,
    ],
    ['offline (Chrome)', new TypeError('Failed to fetch'), 'provider/network', true],
    ['offline (Firefox)', new TypeError('NetworkError when attempting to fetch resource.'), 'provider/network', true],
    ['Cache.add of a failed response (Chrome: 404 or CORS)', new TypeError("Failed to execute 'add' on 'Cache': Request failed"), 'provider/network', true],
    [
      'IndexedDB backend, Node fetch',
      new Error('Failed to store https://huggingface.co/x/resolve/main/mlc-chat-config.json with error: TypeError: fetch failed'),
      'provider/network',
      true,
    ],
    [
      '404 of a model file',
      new Error('ArtifactOPFSCache: Unable to fetch https://huggingface.co/x/resolve/main/params_shard_0.bin, received status 404'),
      'data/not-found',
      false,
    ],
    ['storage full', Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' }), 'store/quota', false],
    ['no Cache Storage (insecure page)', new ReferenceError('caches is not defined'), 'store/io', false],
    ['unknown model id', webllm('ModelNotFoundError', 'Cannot find model record in appConfig for X.'), 'data/not-found', false],
    ['model not loaded', webllm('ModelNotLoadedError', 'Model not loaded before trying to complete ChatCompletionRequest.'), 'run/config', true],
    [
      'prompt too long',
      webllm(
        'ContextWindowSizeExceededError',
        'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096\nConsider...',
      ),
      'run/config',
      false,
    ],
    ['a fetch aborted', Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }), 'run/aborted', false],
  ])('%s -> %s', (_, error, code, retryable) => {
    const e = toWebllmError(error);
    expect(e.code).toBe(code);
    expect(e.isRetryable).toBe(retryable);
    expect(e.cause).toBe(error);
    expect(e.data?.detail).toBe(error.message);
  });

  it('reads the "Name: message" strings WebWorkerMLCEngine rejects with', () => {
    const e = toWebllmError(`ShaderF16SupportError: ${SHADER_F16}`);
    expect(e.code).toBe('engine/unsupported');
    expect(e.message).toBe('This GPU lacks shader-f16, which f16 models need. Choose a q4f32_1 model on the Conductor page.');
    expect(e.data).toEqual({ webllm: 'ShaderF16SupportError', detail: SHADER_F16 });
    expect(toWebllmError('TypeError: Failed to fetch').code).toBe('provider/network');
    expect(toWebllmError('Engine.unload() is called.')).toMatchObject({ code: 'internal', message: 'web-llm failed: Engine.unload() is called.' });
  });

  it('says how much of the prompt overflowed', () => {
    const e = toWebllmError(
      webllm(
        'ContextWindowSizeExceededError',
        'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096\nConsider shortening.',
      ),
    );
    expect(e.message).toContain('(Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096)');
  });

  it('keeps a BatonError as it is', () => {
    const original = new BatonError({ code: 'run/budget', message: 'Over budget.' });
    expect(toWebllmError(original)).toBe(original);
  });
});
