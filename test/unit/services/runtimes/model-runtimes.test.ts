/**
 * The Conductor worker's runtimes at the boundary Baton owns: a web-llm choice travels from the Ask
 * request through AskService, createConductor and ModelRuntimes to WebllmHost with that model's
 * record and Baton's engine config; its progress reaches watchers in LoadProgress shape; cancel and
 * Stop abort the load; a failed load of the real web-llm (offline) is reported and forgotten.
 */
import 'fake-indexeddb/auto';
import { prebuiltAppConfig, type ChatCompletionChunk, type ChatCompletionRequestStreaming, type InitProgressReport } from '@mlc-ai/web-llm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AskRequest } from '../../../../src/services/conductor/api.ts';
import { AskService } from '../../../../src/services/conductor/ask-service.ts';
import { ModelRuntimes, type ConductorLoadStatus } from '../../../../src/services/runtimes/model-runtimes.ts';
import { EngineHost } from '../../../../src/services/runtimes/engine-host.ts';
import {
  buildWebllmEngineConfig,
  WebllmHost,
  WebllmRuntime,
  type WebllmLoadedEngine,
  type WebllmLoader,
} from '../../../../src/services/runtimes/webllm/index.ts';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { DEMO_POOL } from '../../../../src/core/providers/simulated/demo-pool.ts';

const MODEL = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
const PLAN = 'Worker 0 can do it alone.\n\nmodel_id = [0]\nsubtasks = ["Solve it; answer in <answer></answer> tags."]\naccess_list = [[]]';
const MiB = 2 ** 20;
/** The first run imports the orchestra and providers, which takes a while on a busy machine. */
const WAIT = { timeout: 10_000 };

function chunk(content: string | null, extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: MODEL,
    choices: content === null ? [] : [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null, logprobs: null }],
    ...extra,
  };
}

/**
 * Stands in for web-llm's MLCEngine.reload, which cannot fetch a model here: it builds the engine
 * config Baton's real loader builds, reports two download steps through web-llm's progress callback
 * (apart by more than the 100 ms progress reports are throttled to), and waits for `finish()` (or the abort).
 */
class Loads {
  readonly started: { modelId: string; modelUrl: string; cache?: string; finish: () => void }[] = [];
  readonly requests: ChatCompletionRequestStreaming[] = [];
  readonly load: WebllmLoader = (choice, options) =>
    new Promise((resolve, reject) => {
      const { engineConfig } = buildWebllmEngineConfig(choice, options);
      const report = (r: InitProgressReport) => engineConfig.initProgressCallback?.(r);
      report({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
      const reported = new Promise<void>((done) =>
        setTimeout(() => {
          report({ progress: 0.5, timeElapsed: 1, text: 'Fetching param cache[4/8]: 400MB fetched. 50% completed, 1 secs elapsed.' });
          done();
        }, 150),
      );
      const engine: WebllmLoadedEngine = {
        chat: {
          completions: {
            create: async (request) => {
              this.requests.push(request);
              return (async function* () {
                for (const piece of PLAN.match(/[\s\S]{1,12}/g)!) yield chunk(piece);
                yield chunk(null, { usage: { prompt_tokens: 700, completion_tokens: 40, total_tokens: 740 } as ChatCompletionChunk['usage'] });
              })();
            },
          },
        },
        interruptGenerate: () => {},
        unload: async () => {},
      };
      const stopped = () => reject(new BatonError({ code: 'run/aborted', message: 'Stopped.' }));
      if (options.signal?.aborted) stopped();
      options.signal?.addEventListener('abort', stopped);
      this.started.push({
        modelId: choice.modelId,
        modelUrl: engineConfig.appConfig!.model_list[0].model,
        ...(options.cache ? { cache: options.cache } : {}),
        finish: () => void reported.then(() => resolve(engine)),
      });
    });
}

function runtimesWith(loads: Loads, shaderF16 = false): ModelRuntimes {
  const webllm = new WebllmRuntime({ host: new WebllmHost(loads.load), caps: async () => ({ shaderF16 }), prebuilt: async () => prebuiltAppConfig.model_list });
  return new ModelRuntimes(new EngineHost(), webllm);
}

function watched(runtimes: ModelRuntimes): ConductorLoadStatus[] {
  const seen: ConductorLoadStatus[] = [];
  runtimes.watch((s) => seen.push(s));
  return seen;
}

const request: AskRequest = {
  task: { question: 'What is 6 x 7?', answer: '42', kind: 'number' },
  pool: DEMO_POOL.map((w) => ({ ...w, simulated: { ...w.simulated!, latencyMs: 0 } })),
  conductor: { kind: 'webllm-model', modelId: MODEL },
  options: { maxSteps: 5, access: 'positional', recursionDepth: 0, budgetUsd: 1, stepTimeoutMs: 10_000 },
  keys: {},
};

describe('a web-llm Conductor through the worker API', () => {
  it('loads the chosen prebuilt model through WebllmHost, shows its progress, and plans with it', async () => {
    const loads = new Loads();
    const runtimes = runtimesWith(loads);
    const seen = watched(runtimes);
    const service = new AskService(runtimes);
    const asked = service.ask(request, () => {});
    await vi.waitFor(() => expect(loads.started).toHaveLength(1), WAIT);
    const record = prebuiltAppConfig.model_list.find((r) => r.model_id === MODEL)!;
    expect(loads.started[0]).toMatchObject({ modelId: MODEL, modelUrl: record.model });
    loads.started[0].finish();
    const episode = await asked;

    expect(episode.status).toBe('ok');
    expect(episode.conductor).toMatchObject({ runtime: 'webllm', model: MODEL, sampling: { temperature: 1, maxNewTokens: 2048 } });
    expect(episode.completion.text).toBe(PLAN);
    expect(episode.workflow?.steps).toEqual([{ worker: 0, subtask: 'Solve it; answer in <answer></answer> tags.', access: [] }]);
    expect(loads.requests[0]).toMatchObject({ model: MODEL, stream: true, max_tokens: 2048, temperature: 1 });
    expect(seen).toEqual([
      { runtime: 'webllm', model: MODEL, state: 'loading' },
      { runtime: 'webllm', model: MODEL, state: 'loading', progress: { phase: 'download', unit: 'bytes', loaded: 0 } },
      {
        runtime: 'webllm',
        model: MODEL,
        state: 'loading',
        progress: {
          phase: 'download',
          unit: 'bytes',
          loaded: 400 * MiB,
          total: 800 * MiB,
          bytesPerSecond: expect.any(Number),
          secondsLeft: expect.any(Number),
        },
      },
      { runtime: 'webllm', model: MODEL, state: 'ready' },
    ]);

    // The next question reuses the loaded model: no second load, nothing new to watch.
    expect((await service.ask(request, () => {})).status).toBe('ok');
    expect(loads.started).toHaveLength(1);
    expect(seen).toHaveLength(4);
  });

  it('cancel() stops a load from the Conductor page; nothing stays loaded and another load works', async () => {
    const loads = new Loads();
    const runtimes = runtimesWith(loads);
    const seen = watched(runtimes);
    const loading = runtimes.loadWebllm(MODEL);
    await vi.waitFor(() => expect(loads.started).toHaveLength(1), WAIT);
    expect(runtimes.cancel()).toBe(true);
    await expect(loading).rejects.toMatchObject({ code: 'run/aborted' });
    expect(seen.at(-1)).toEqual({ runtime: 'webllm', model: MODEL, state: 'cancelled' });
    expect(runtimes.webllm.current()).toBeUndefined();
    expect(runtimes.cancel()).toBe(false);

    const again = runtimes.loadWebllm('Qwen2.5-3B-Instruct-q4f32_1-MLC');
    await vi.waitFor(() => expect(loads.started).toHaveLength(2), WAIT);
    loads.started[1].finish();
    expect(await again).toBe('Qwen2.5-3B-Instruct-q4f32_1-MLC');
    expect(runtimes.webllm.current()).toBe('Qwen2.5-3B-Instruct-q4f32_1-MLC');
  });

  it("a run's Stop aborts the model load it waits for", async () => {
    const loads = new Loads();
    const runtimes = runtimesWith(loads);
    const seen = watched(runtimes);
    const service = new AskService(runtimes);
    const asked = service.ask(request, () => {});
    await vi.waitFor(() => expect(loads.started).toHaveLength(1), WAIT);
    service.stop();
    await expect(asked).rejects.toMatchObject({ code: 'run/aborted' });
    expect(seen.at(-1)?.state).toBe('cancelled');
  });

  it("a run's Stop returns at once while it waits on a load the Conductor page started; that load goes on", async () => {
    const loads = new Loads();
    const runtimes = runtimesWith(loads);
    const service = new AskService(runtimes);
    const fromPage = runtimes.loadWebllm(MODEL);
    await vi.waitFor(() => expect(loads.started).toHaveLength(1), WAIT);
    const asked = service.ask(request, () => {});
    await new Promise((r) => setTimeout(r, 20));
    service.stop();
    await expect(asked).rejects.toMatchObject({ code: 'run/aborted' });
    expect(runtimes.cancel('engine')).toBe(false); // the other runtime's Cancel leaves this load alone
    loads.started[0].finish();
    expect(await fromPage).toBe(MODEL);
    expect(loads.started).toHaveLength(1);
  });

  it('a stored f16 model on a GPU without shader-f16 fails before any download, saying why in the stored turn', async () => {
    const loads = new Loads();
    const service = new AskService(runtimesWith(loads, false));
    const episode = await service.ask({ ...request, conductor: { kind: 'webllm-model', modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' } }, () => {});
    expect(episode.status).toBe('infra-error');
    expect(episode.error).toMatchObject({ code: 'engine/unsupported', message: expect.stringContaining('shader-f16') });
    expect(loads.started).toHaveLength(0);
  });
});

describe('the real web-llm behind ModelRuntimes, offline', () => {
  // web-llm resolves model URLs against the worker's location, which Node lacks.
  beforeAll(() => {
    Object.defineProperty(globalThis, 'location', { value: new URL('http://127.0.0.1:9/'), configurable: true });
  });
  afterAll(() => {
    Reflect.deleteProperty(globalThis, 'location');
  });

  it('reports the failed download to watchers with a message saying what to do, and keeps nothing loaded', async () => {
    const real = prebuiltAppConfig.model_list.find((r) => r.model_id === MODEL)!;
    // The real record with its files on a closed local port: "offline", deterministically.
    const offline = { ...real, model: 'http://127.0.0.1:9/Qwen2.5-1.5B/', model_lib: 'http://127.0.0.1:9/lib.wasm' };
    const webllm = new WebllmRuntime({ caps: async () => ({ shaderF16: false }), prebuilt: async () => [offline], cache: { cache: 'indexeddb' } });
    const runtimes = new ModelRuntimes(new EngineHost(), webllm);
    const seen = watched(runtimes);
    await expect(runtimes.loadWebllm(MODEL)).rejects.toMatchObject({ code: 'provider/network' });
    expect(seen.at(-1)).toMatchObject({
      runtime: 'webllm',
      model: MODEL,
      state: 'failed',
      error: { code: 'provider/network', message: expect.stringMatching(/^Could not download the model's files/) },
    });
    expect(webllm.current()).toBeUndefined();
  });
});
