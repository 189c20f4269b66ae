/**
 * The engine model a pool worker with provider 'engine' names, as the Conductor page's choices name models, so
 * that a worker on the Conductor's own model (the same source, weights and adapter) runs on the model already
 * loaded. `model`: 'demo' (the demo Conductor served with the app), a Hub repo id or a model directory's URL;
 * `adapter`: `trained:<name>` (trained on the Train page), a Hub repo id or a URL, both read as the Evaluate page
 * reads engine:<model>,lora=<adapter> (core/conductor). engineWorkerFields goes the other way, for the Workers
 * page's "your engine model".
 */
import { BatonError } from '../../core/errors/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import {
  defaultEngineWeights,
  engineSourceText,
  webAdapterSource,
  webModelSource,
  type EngineAdapterSource,
  type EngineModelChoice,
} from '../../core/conductor/index.ts';

function adapterOf(spec: WorkerSpec, text: string): EngineAdapterSource {
  const source = webAdapterSource(text.trim());
  if (source) return source;
  throw new BatonError({
    code: 'run/config',
    message: `Worker '${spec.id}' names the adapter '${text}', which is neither trained:<name> (an adapter trained on the Train page), a Hub repo id (owner/name) nor a URL: fix it on the Workers page.`,
    data: { worker: spec.id, adapter: text },
  });
}

export function engineWorkerChoice(spec: WorkerSpec): EngineModelChoice {
  const source = webModelSource(spec.model.trim());
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
    weights: spec.weights ?? defaultEngineWeights(source),
    ...(spec.adapter ? { adapter: adapterOf(spec, spec.adapter) } : {}),
  };
}

/** The WorkerSpec fields that name `choice`'s model (engineWorkerChoice gives it back); undefined for picked files. */
export function engineWorkerFields(choice: EngineModelChoice): Pick<WorkerSpec, 'model' | 'weights' | 'adapter'> | undefined {
  const model = engineSourceText(choice.source);
  const adapter = choice.adapter && engineSourceText(choice.adapter);
  if (model === undefined || (choice.adapter && adapter === undefined)) return undefined;
  return { model, weights: choice.weights, ...(adapter ? { adapter } : {}) };
}
