/**
 * The local pool workers of the Conductor's web worker (core/providers/local's LocalModels): an 'engine' worker
 * runs on the engine model its spec names, a 'webllm' worker on a web-llm prebuilt model, both loaded through the
 * Conductor runtimes (so a worker on the Conductor's own model reuses its load, and loads show on the page) and
 * generating in turn with the Conductor on the one GPU queue.
 */
import type { LocalChatRequest, LocalGeneration, LocalModels, WorkerSpec } from '../../core/providers/index.ts';
import type { ConductorRuntimes } from './conductor-runtimes.ts';
import { engineChat } from './engine-chat.ts';
import { engineWorkerChoice } from './engine-worker-choice.ts';
import { createWebllmConductor } from './webllm/index.ts';

export class TabLocalModels implements LocalModels {
  readonly #runtimes: Pick<ConductorRuntimes, 'gpu' | 'readyEngineWorker' | 'readyWebllm'>;

  constructor(runtimes: Pick<ConductorRuntimes, 'gpu' | 'readyEngineWorker' | 'readyWebllm'>) {
    this.#runtimes = runtimes;
  }

  async chat(spec: WorkerSpec, request: LocalChatRequest): Promise<LocalGeneration> {
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
    return gpu.run(() => engineChat(loaded, request), request.signal);
  }
}
