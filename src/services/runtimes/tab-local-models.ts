/**
 * The local pool workers of the Conductor's web worker (core/providers/local's LocalModels): an 'engine' worker
 * runs on the engine model its spec names, a 'webllm' worker on a web-llm prebuilt model, both loaded through the
 * worker's model runtimes (so a worker on the Conductor's own model reuses its load, and loads show on the page)
 * and generating in turn with the Conductor on the one GPU queue.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { LocalChatRequest, LocalGeneration, LocalModels, WorkerSpec } from '../../core/providers/index.ts';
import type { ModelRuntimes } from './model-runtimes.ts';
import { engineWorkerChoice } from './engine-worker-choice.ts';
import { createWebllmConductor } from './webllm/index.ts';

export class TabLocalModels implements LocalModels {
  readonly #runtimes: Pick<ModelRuntimes, 'gpu' | 'readyEngineWorker' | 'readyWebllm'>;

  constructor(runtimes: Pick<ModelRuntimes, 'gpu' | 'readyEngineWorker' | 'readyWebllm'>) {
    this.#runtimes = runtimes;
  }

  async chat(spec: WorkerSpec, request: LocalChatRequest): Promise<LocalGeneration> {
    try {
      return await this.#chat(spec, request);
    } catch (e) {
      throw forWorker(spec, e);
    }
  }

  async #chat(spec: WorkerSpec, request: LocalChatRequest): Promise<LocalGeneration> {
    const { gpu } = this.#runtimes;
    if (spec.provider === 'webllm') {
      // web-llm holds one model at a time: the load joins the queue, so it never replaces a model mid-answer.
      return gpu.run(async () => {
        const ready = await this.#runtimes.readyWebllm(spec.model, request.signal, true);
        const chat = createWebllmConductor(ready.engine, ready.choice, { temperature: request.temperature, maxNewTokens: request.maxTokens });
        const out = await chat.generate({ messages: request.messages, signal: request.signal, ...(request.onDelta ? { onDelta: request.onDelta } : {}) });
        return { text: out.text, usage: out.usage ?? { input: 0, output: 0 }, finishReason: 'stop' };
      }, request.signal);
    }
    const loaded = await this.#runtimes.readyEngineWorker(engineWorkerChoice(spec), request.signal);
    // The engine's modules are in by now: the load above brought them.
    const { engineChat } = await import('../../engine/index.ts');
    return gpu.run(() => engineChat(loaded, request), request.signal);
  }
}

/** The runtimes speak to the Conductor's choosers; a worker's step names the worker and where to change it. */
function forWorker(spec: WorkerSpec, e: unknown): unknown {
  if (!(e instanceof BatonError)) return e;
  const data = { ...e.data, worker: spec.id };
  if (e.code === 'engine/no-adapter') {
    return new BatonError({
      code: e.code,
      message: `WebGPU is not available in this tab, so worker '${spec.id}' (a model that runs in the tab) cannot answer: on the Workers page, use a worker that runs elsewhere (an API or a local server).`,
      data,
      cause: e,
    });
  }
  if (e.code === 'engine/unsupported' && spec.provider === 'webllm') {
    return new BatonError({
      code: e.code,
      message: `Worker '${spec.id}': web-llm's ${spec.model} is not among the models this GPU can run; give it another model id on the Workers page (the Conductor page lists the ones that run here).`,
      data,
      cause: e,
    });
  }
  return e;
}
