/** Builds the Conductor the user chose on the Conductor page. */
import { BatonError } from '../../core/errors/index.ts';
import type { Conductor } from '../../core/orchestra/index.ts';
import type { WorkerModel } from '../../core/providers/index.ts';
import type { Task } from '../../core/task.ts';
import type { AccessMode } from '../../core/workflow/index.ts';
import { createWebllmConductor } from './webllm/index.ts';
import { DEMO_ENGINE_MODEL, type ConductorChoice, type EngineModelChoice } from './conductor-choice.ts';
import type { ConductorRuntimes } from './conductor-runtimes.ts';
import type { GpuQueue } from './gpu-queue.ts';
import { CONDUCTOR_MAX_NEW_TOKENS, conductorSampling, engineConductor } from './engine-conductor-settings.ts';
import { createRandomRoutingConductor } from '../../core/bench/baselines/index.ts';

export interface ConductorContext {
  pool: WorkerModel[];
  /** The question being run: a Conductor with a prompt of its own (EngineModelChoice.prompt) renders it. */
  task?: Task;
  maxSteps: number;
  access: AccessMode;
  /** Builds a worker for a remote endpoint playing the Conductor (loaded lazily with the providers). */
  remoteWorker: (baseUrl: string, model: string) => Promise<WorkerModel>;
  /** The model runtimes of this worker thread (Baton's engine, web-llm), for choices that need a model. */
  runtimes: Pick<ConductorRuntimes, 'engine' | 'readyEngine' | 'readyWebllm' | 'gpu'>;
  /** Stops a model load the choice needs (the run's Stop). */
  signal?: AbortSignal;
}

/** Errors after which the demo model gives way to random routing: the GPU cannot hold or run it. */
const GPU_TOO_WEAK = new Set(['engine/no-adapter', 'engine/gpu', 'engine/out-of-memory', 'engine/unsupported', 'engine/device-lost']);

/** `conductor` generating in its turn on the worker's GPU queue, which the local pool workers share. */
function queued(conductor: Conductor, gpu: GpuQueue): Conductor {
  return { info: conductor.info, generate: (req) => gpu.run(() => conductor.generate(req), req.signal) };
}

async function onEngine(model: EngineModelChoice, ctx: ConductorContext): Promise<Conductor> {
  const loaded = await ctx.runtimes.readyEngine(model, ctx.signal);
  return queued(await engineConductor(loaded, model, {
    workers: ctx.pool.length,
    maxSteps: ctx.maxSteps,
    access: ctx.access,
    ...(ctx.task ? { task: ctx.task, pool: ctx.pool.map((w) => w.spec) } : {}),
  }), ctx.runtimes.gpu);
}

/**
 * A Conductor on web-llm. web-llm holds one model at a time, and a web-llm pool worker may have loaded its own
 * since the last round: each generation makes sure of the model in its turn on the queue.
 */
async function onWebllm(modelId: string, ctx: ConductorContext): Promise<Conductor> {
  const sampling = { ...conductorSampling(), maxNewTokens: CONDUCTOR_MAX_NEW_TOKENS };
  const first = await ctx.runtimes.readyWebllm(modelId, ctx.signal);
  return {
    info: createWebllmConductor(first.engine, first.choice, sampling).info,
    generate: (req) =>
      ctx.runtimes.gpu.run(async () => {
        const ready = await ctx.runtimes.readyWebllm(modelId, req.signal);
        return createWebllmConductor(ready.engine, ready.choice, sampling).generate(req);
      }, req.signal),
  };
}

/**
 * The default: the demo engine model on a hardware GPU; random routing where WebGPU is missing, is a
 * software renderer (far too slow to wait for), or cannot load the model.
 */
async function auto(ctx: ConductorContext): Promise<Conductor> {
  const support = await ctx.runtimes.engine.support();
  if (!support.ok || support.software) return randomRouting(ctx);
  return demoOrRandom(DEMO_ENGINE_MODEL, ctx);
}

const randomRouting = (ctx: ConductorContext) => createRandomRoutingConductor({ workers: ctx.pool.length, maxSteps: ctx.maxSteps, access: ctx.access });

/**
 * The demo engine model, chosen or by default; random routing where the GPU cannot run it, as the
 * Conductor page promises (the episode then names random routing, so nothing is hidden).
 */
async function demoOrRandom(model: EngineModelChoice, ctx: ConductorContext): Promise<Conductor> {
  try {
    return await onEngine(model, ctx);
  } catch (e) {
    if (e instanceof BatonError && GPU_TOO_WEAK.has(e.code)) return randomRouting(ctx);
    throw e;
  }
}

export async function createConductor(choice: ConductorChoice, ctx: ConductorContext): Promise<Conductor> {
  const { createWorkerConductor } = await import('../../core/orchestra/index.ts');
  if (ctx.pool.length < 1) {
    throw new BatonError({ code: 'run/config', message: 'The worker pool is empty: add at least one worker on the Workers page.' });
  }
  switch (choice.kind) {
    case 'demo-auto':
      return auto(ctx);
    case 'random-routing':
      return randomRouting(ctx);
    case 'engine-model':
      return choice.model.source.from === 'demo' ? demoOrRandom(choice.model, ctx) : onEngine(choice.model, ctx);
    case 'webllm-model':
      return onWebllm(choice.modelId, ctx);
    case 'pool-worker': {
      const worker = ctx.pool.find((w) => w.spec.id === choice.workerId);
      if (!worker) {
        throw new BatonError({
          code: 'run/config',
          message: `The Conductor is set to worker "${choice.workerId}", which is no longer in the pool: choose another on the Conductor page.`,
        });
      }
      return createWorkerConductor(worker, { temperature: 1 });
    }
    case 'remote-endpoint':
      return createWorkerConductor(await ctx.remoteWorker(choice.baseUrl, choice.model), { temperature: 1 });
  }
}
