/**
 * The tab's host for core/conductor's createConductor, for Ask and the Evaluate page alike: engine and web-llm models
 * on the model runtimes of this web worker (their loads shown on the pages, their generations on the runtimes'
 * GPU queue), an adapter trained in this browser, a remote endpoint built with the page's keys, and the plan
 * files picked on the Evaluate page. A model directory is for baton eval.
 * Test: test/unit/services/runtimes/tab-conductor-host.test.ts.
 */
import type { ConductorHost, EngineModelChoice, LoadedConductorModel } from '../../core/conductor/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { ModelRuntimes } from './model-runtimes.ts';
import type { LoadedEngine } from './engine-host.ts';
import { createWebllmConductor } from './webllm/index.ts';

export interface TabHostOptions {
  remoteWorker: ConductorHost['remoteWorker'];
  /** Plan files picked on the Evaluate page, by name. */
  plans?: Readonly<Record<string, string>>;
  /**
   * Where the engine cannot run, say so in the browser's words (no WebGPU, or no usable adapter) before loading, as
   * the Evaluate page does; absent: the load says it, with what to choose instead on the Conductor page.
   */
  browserGpuReason?: true;
}

/** Why the tab cannot load `model`: a directory, which only baton eval reads. */
function notInTab(model: EngineModelChoice): string | undefined {
  const refuse = (what: string, path: string) =>
    `${what} "${path}" is neither a Hub repo nor a URL. On this page an engine model is demo, a Hub repo (owner/name) or a URL, and an adapter trained:<name>, a Hub repo or a URL; a model directory is for baton eval.`;
  if (model.source.from === 'dir') return refuse('the model', model.source.path);
  if (model.adapter?.from === 'dir') return refuse('the adapter', model.adapter.path);
  return undefined;
}

async function conductorModel(engine: LoadedEngine): Promise<LoadedConductorModel> {
  const { EnginePolicy } = await import('../../engine/index.ts');
  const { info } = engine;
  return {
    policy: new EnginePolicy(engine.model, engine.tokenizer),
    tokenizer: engine.tokenizer,
    vocabSize: engine.model.config.vocabSize,
    model: info.model,
    ...(info.adapter ? { adapter: info.adapter } : {}),
    ...(info.format ? { format: info.format } : {}),
  };
}

export function tabConductorHost(runtimes: Pick<ModelRuntimes, 'engine' | 'readyEngine' | 'readyWebllm' | 'gpu'>, options: TabHostOptions): ConductorHost {
  return {
    cannotRun: (choice) => (choice.kind === 'engine-model' ? notInTab(choice.model) : undefined),
    gpu: runtimes.gpu,
    async hardwareGpu() {
      const support = await runtimes.engine.support();
      return support.ok && !support.software;
    },
    async loadEngine(model, signal) {
      const support = options.browserGpuReason && (await runtimes.engine.support());
      if (support && !support.ok) throw new BatonError({ code: 'engine/no-adapter', message: support.message });
      return conductorModel(await runtimes.readyEngine(model, signal));
    },
    /**
     * web-llm holds one model at a time, and a web-llm pool worker may have loaded its own since the last round:
     * each generation makes sure of the model, in its turn on the queue.
     */
    async loadWebllm(modelId, signal) {
      const first = await runtimes.readyWebllm(modelId, signal);
      return (sampling) => ({
        info: createWebllmConductor(first.engine, first.choice, sampling).info,
        async generate(req) {
          const ready = await runtimes.readyWebllm(modelId, req.signal);
          return createWebllmConductor(ready.engine, ready.choice, sampling).generate(req);
        },
      });
    },
    async readPlan(file) {
      const text = options.plans?.[file];
      if (text === undefined) throw new BatonError({ code: 'run/config', message: `pick the plan file ${file} under Methods first.` });
      return text;
    },
    remoteWorker: options.remoteWorker,
  };
}
