/**
 * The engine model a pool worker with provider 'engine' names, as the Conductor page's choices name models, so
 * that a worker on the Conductor's own model (the same source, weights and adapter) runs on the model already
 * loaded. `model`: 'demo' (the demo Conductor served with the app), a Hub repo id or a model directory's URL;
 * `adapter`: `trained:<name>` (trained on the Train page), a Hub repo id or a URL. engineWorkerFields goes the
 * other way, for the Workers page's "your engine model".
 */
import { BatonError } from '../../core/errors/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import {
  DEMO_ENGINE_MODEL,
  engineSourceText,
  hubRepoId,
  type EngineAdapterSource,
  type EngineFilesSource,
  type EngineModelChoice,
} from '../../core/conductor/index.ts';

export const DEMO_WORKER_MODEL = 'demo';

const TRAINED = 'trained:';

function filesSource(text: string): EngineFilesSource | undefined {
  // As written, as the Conductor page keeps a URL: the same text names the same loaded model.
  if (/^https?:\/\//i.test(text)) return { from: 'url', url: text };
  const repo = hubRepoId(text);
  return repo ? { from: 'hub', repo } : undefined;
}

function adapterSource(spec: WorkerSpec, text: string): EngineAdapterSource {
  const name = text.startsWith(TRAINED) ? text.slice(TRAINED.length).trim() : undefined;
  const source = name ? ({ from: 'trained', name } as const) : filesSource(text);
  if (source) return source;
  throw new BatonError({
    code: 'run/config',
    message: `Worker '${spec.id}' names the adapter '${text}', which is neither trained:<name> (an adapter trained on the Train page), a Hub repo id (owner/name) nor a URL: fix it on the Workers page.`,
    data: { worker: spec.id, adapter: text },
  });
}

export function engineWorkerChoice(spec: WorkerSpec): EngineModelChoice {
  const model = spec.model.trim();
  const demo = model.toLowerCase() === DEMO_WORKER_MODEL;
  const source = demo ? ({ from: 'demo' } as const) : filesSource(model);
  if (!source) {
    throw new BatonError({
      code: 'run/config',
      message: `Worker '${spec.id}' names the engine model '${spec.model}', which is neither 'demo' (the demo Conductor), a Hub repo id (owner/name) nor the URL of a model directory: fix it on the Workers page.`,
      data: { worker: spec.id, model: spec.model },
    });
  }
  return {
    source,
    // The demo model loads as the demo Conductor does, so the two share one load.
    weights: spec.weights ?? (demo ? DEMO_ENGINE_MODEL.weights : 'auto'),
    ...(spec.adapter ? { adapter: adapterSource(spec, spec.adapter) } : {}),
  };
}

/** The WorkerSpec fields that name `choice`'s model (engineWorkerChoice gives it back); undefined for picked files. */
export function engineWorkerFields(choice: EngineModelChoice): Pick<WorkerSpec, 'model' | 'weights' | 'adapter'> | undefined {
  const model = engineSourceText(choice.source);
  const adapter = choice.adapter && engineSourceText(choice.adapter);
  if (model === undefined || (choice.adapter && adapter === undefined)) return undefined;
  return { model, weights: choice.weights, ...(adapter ? { adapter } : {}) };
}
