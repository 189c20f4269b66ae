import 'fake-indexeddb/auto';
import { prebuiltAppConfig, type AppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import {
  freeWebllmCache,
  webllmCacheStatus,
  webllmModelChoices,
  type WebllmCacheApi,
  type WebllmModelChoice,
} from '../../../../../src/services/runtimes/webllm/index.ts';
import { BatonError } from '../../../../../src/core/errors/index.ts';

const real = webllmModelChoices({ shaderF16: false }, prebuiltAppConfig.model_list).find((c) => c.modelId === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC')!;
/** The same record with its files on a closed local port: "offline", deterministically. */
const offline: WebllmModelChoice = { ...real, record: { ...real.record, model: 'http://127.0.0.1:9/Qwen2.5-0.5B/', model_lib: 'http://127.0.0.1:9/lib.wasm' } };

async function rejection(p: Promise<unknown>): Promise<BatonError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof BatonError)) throw new Error(`expected a BatonError, got ${String(e)}`);
  return e;
}

/** Records what web-llm's functions were asked; Node has no Cache Storage for the real ones. */
class CacheDouble implements WebllmCacheApi {
  readonly calls: { fn: string; modelId: string; appConfig?: AppConfig }[] = [];
  constructor(
    public stored: boolean,
    readonly deleteError?: unknown,
  ) {}
  async hasModelInCache(modelId: string, appConfig?: AppConfig): Promise<boolean> {
    this.calls.push({ fn: 'has', modelId, appConfig });
    return this.stored;
  }
  async deleteModelAllInfoInCache(modelId: string, appConfig?: AppConfig): Promise<void> {
    this.calls.push({ fn: 'delete', modelId, appConfig });
    if (this.deleteError) throw this.deleteError;
    this.stored = false;
  }
}

describe('web-llm cache helpers', () => {
  it('ask web-llm with the appConfig the engine loads with', async () => {
    const api = new CacheDouble(true);
    expect(await webllmCacheStatus(real, { api })).toEqual({ modelId: real.modelId, cached: true });
    await freeWebllmCache(real, { api, cache: 'indexeddb' });
    expect(api.calls).toEqual([
      { fn: 'has', modelId: real.modelId, appConfig: { model_list: [real.record], cacheBackend: 'cache' } },
      { fn: 'delete', modelId: real.modelId, appConfig: { model_list: [real.record], cacheBackend: 'indexeddb' } },
    ]);
    expect(await webllmCacheStatus(real, { api })).toEqual({ modelId: real.modelId, cached: false });
  });

  it('report a failed delete of a stored model', async () => {
    const api = new CacheDouble(true, new TypeError('Failed to fetch'));
    expect((await rejection(freeWebllmCache(real, { api }))).code).toBe('provider/network');
  });

  it('run the real web-llm on IndexedDB (fake-indexeddb): nothing stored, and freeing that offline is done', async () => {
    expect(await webllmCacheStatus(offline, { cache: 'indexeddb' })).toEqual({ modelId: real.modelId, cached: false });
    await expect(freeWebllmCache(offline, { cache: 'indexeddb' })).resolves.toBeUndefined();
  });

  it("map the real web-llm's failure where the Cache API is missing (Node, or an insecure page)", async () => {
    const e = await rejection(webllmCacheStatus(real));
    expect(e.code).toBe('store/io');
    expect(e.data?.detail).toBe('caches is not defined');
  });
});
