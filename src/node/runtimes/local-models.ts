/**
 * Local pool workers under the CLI (core/providers/local's LocalModels): provider 'engine' with a model directory
 * (`model`, and an optional PEFT `adapter` directory, both relative to the working directory) runs on Dawn, each
 * directory loaded once and shared by every worker and Conductor that names it, generations one at a time.
 * `close()` frees the models and lets the process end.
 */
import { resolve } from 'node:path';
import { BatonError } from '../../core/errors/index.ts';
import type { LocalChatRequest, LocalGeneration, LocalModels, WorkerSpec } from '../../core/providers/index.ts';
import { engineChat, GpuQueue } from '../../engine/index.ts';
import type { NodeModel, NodeModelRef } from '../models/index.ts';

export class NodeLocalModels implements LocalModels {
  readonly #cwd: string;
  readonly #models = new Map<string, Promise<NodeModel>>();
  /** The generations of every model opened here, in turn. */
  readonly gpu = new GpuQueue();

  constructor(cwd: string) {
    this.#cwd = cwd;
  }

  /** The model in `ref`'s directories (relative to the working directory), loaded on first use. */
  open(ref: NodeModelRef): Promise<NodeModel> {
    const modelDir = resolve(this.#cwd, ref.modelDir);
    const loraDir = ref.loraDir === undefined ? undefined : resolve(this.#cwd, ref.loraDir);
    const key = JSON.stringify([modelDir, loraDir, ref.weights]);
    let opened = this.#models.get(key);
    if (!opened) {
      opened = import('../models/index.ts').then(({ openNodeModel }) =>
        openNodeModel({ modelDir, ...(loraDir ? { loraDir } : {}), ...(ref.weights ? { weights: ref.weights } : {}), withTokenizer: true }),
      );
      this.#models.set(key, opened);
      // A failed load is tried again by the next call (its error reaches each step that asked).
      opened.catch(() => this.#models.delete(key));
    }
    return opened;
  }

  async chat(spec: WorkerSpec, request: LocalChatRequest): Promise<LocalGeneration> {
    if (spec.provider !== 'engine') {
      throw new BatonError({
        code: 'provider/unsupported',
        message: `Worker '${spec.id}' is a web-llm model, which runs in the browser only: under the CLI give it provider "engine" and a model directory.`,
        data: { worker: spec.id, provider: spec.provider },
      });
    }
    const weights = spec.weights === 'auto' ? undefined : spec.weights;
    const loaded = await this.open({ modelDir: spec.model, ...(spec.adapter ? { loraDir: spec.adapter } : {}), ...(weights ? { weights } : {}) });
    return this.gpu.run(() => engineChat({ model: loaded.model, tokenizer: loaded.tokenizer! }, request), request.signal);
  }

  async close(): Promise<void> {
    const models = [...this.#models.values()];
    this.#models.clear();
    for (const m of await Promise.allSettled(models)) if (m.status === 'fulfilled') m.value.close();
  }
}
