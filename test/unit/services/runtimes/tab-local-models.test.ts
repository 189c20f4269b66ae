/**
 * What a local pool worker's step says when it cannot run, through the Conductor worker's own runtimes: no
 * WebGPU in the tab, a model name that names no model, a web-llm model this GPU cannot run. Each is one
 * sentence naming the worker and where to change it. (Answers on a real model: test/engine/services/conductor.)
 */
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkerModel } from '../../../../src/core/providers/create-worker.ts';
import type { WorkerSpec } from '../../../../src/core/providers/index.ts';
import { ModelRuntimes } from '../../../../src/services/runtimes/model-runtimes.ts';
import { EngineHost } from '../../../../src/services/runtimes/engine-host.ts';
import { TabLocalModels } from '../../../../src/services/runtimes/tab-local-models.ts';
import { WebllmRuntime } from '../../../../src/services/runtimes/webllm/index.ts';

const ASK = { messages: [{ role: 'user' as const, content: 'Add 2 and 3.' }] };

describe('local workers that cannot run', () => {
  let runtimes: ModelRuntimes;
  const worker = (spec: Omit<WorkerSpec, 'id'>) => createWorkerModel({ id: 'tiny', ...spec }, { local: new TabLocalModels(runtimes) });

  beforeEach(() => {
    // A tab whose browser has no WebGPU, and a GPU without shader-f16 as web-llm sees it.
    Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true });
    runtimes = new ModelRuntimes(
      new EngineHost(),
      new WebllmRuntime({ caps: async () => ({ shaderF16: false }), prebuilt: async () => prebuiltAppConfig.model_list }),
    );
  });
  afterEach(() => Reflect.deleteProperty(globalThis, 'navigator'));

  it('says WebGPU is missing, naming the worker and what to use instead', async () => {
    await expect(worker({ provider: 'engine', model: 'demo' }).call(ASK)).rejects.toMatchObject({
      code: 'engine/no-adapter',
      message:
        "WebGPU is not available in this tab, so worker 'tiny' (a model that runs in the tab) cannot answer: on the Workers page, use a worker that runs elsewhere (an API or a local server).",
    });
  });

  it('says what an engine model name must be', async () => {
    await expect(worker({ provider: 'engine', model: 'my model' }).call(ASK)).rejects.toMatchObject({
      code: 'run/config',
      message: expect.stringMatching(/^Worker 'tiny' names the engine model 'my model', which is neither 'demo'/),
    });
  });

  it('says a web-llm model does not run on this GPU, and where to choose another', async () => {
    await expect(worker({ provider: 'webllm', model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' }).call(ASK)).rejects.toMatchObject({
      code: 'engine/unsupported',
      message: expect.stringMatching(
        /^Worker 'tiny': web-llm's Qwen2.5-1.5B-Instruct-q4f16_1-MLC is not among the models this GPU can run; give it another model id on the Workers page/,
      ),
    });
  });
});
