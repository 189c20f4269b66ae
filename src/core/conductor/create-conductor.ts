/**
 * The chosen Conductor, made on a host. What is the same everywhere lives here once: a pool worker or a remote
 * endpoint playing the Conductor at temperature 1, random routing, a fixed plan, an engine model run as it was
 * trained (engine-conductor.ts), web-llm, the demo model giving way to random routing where the GPU cannot run
 * it, every local model's generations in turn on the host's GPU queue, and a seed per run. The host
 * (ConductorHost) supplies what differs, files, models and keys, and says which choices it cannot run.
 * conductorMaker is the evaluations' shape (load once, a Conductor per run); createConductor makes one for one run.
 * Test: test/unit/core/conductor/create-conductor.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { createFixedConductor, createWorkerConductor, type Conductor } from '../orchestra/index.ts';
import type { WorkerModel } from '../providers/index.ts';
import type { Task } from '../task.ts';
import type { AccessMode } from '../workflow/index.ts';
import { createRandomRoutingConductor } from './random-routing-conductor.ts';
import { DEMO_ENGINE_MODEL, type ConductorChoice, type EngineModelChoice } from './conductor-choice.ts';
import { CONDUCTOR_MAX_NEW_TOKENS, conductorSampling, engineConductor, type LoadedConductorModel } from './engine-conductor.ts';

/** A queue of generations on one GPU: first come, first served; a caller stopped while waiting leaves it. */
interface GpuTurns {
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** How a web-llm model samples: the Conductor here always gives a seed; a pool worker on web-llm may go without. */
export interface WebllmSampling {
  temperature: number;
  topP?: number;
  maxNewTokens: number;
  seed?: number;
}

/** What a host supplies: where models, files and keys come from there. */
export interface ConductorHost {
  /** Why `choice` cannot run on this host, with what to do instead; undefined when it can. Asked before anything loads. */
  cannotRun(choice: ConductorChoice): string | undefined;
  /** The GPU's queue, which the pool's local workers share. */
  gpu: GpuTurns;
  /** Whether the GPU can be expected to run the demo model (present, and no software renderer); absent: try it. */
  hardwareGpu?(): Promise<boolean>;
  /** An engine model, loaded if it is not already. */
  loadEngine(model: EngineModelChoice, signal?: AbortSignal): Promise<LoadedConductorModel>;
  /** A web-llm model, loaded if it is not already: the Conductor on it for a run's sampling. Absent without web-llm (Node), whose cannotRun refuses it. */
  loadWebllm?(modelId: string, signal?: AbortSignal): Promise<(sampling: WebllmSampling) => Conductor>;
  /** A plan file's text. */
  readPlan(file: string): Promise<string>;
  /** A worker for an OpenAI-compatible endpoint, with its key. */
  remoteWorker(baseUrl: string, model: string): Promise<WorkerModel>;
}

/** What every run of the Conductor shares. */
export interface ConductorSettings {
  /** The pool's worker ids: a pool worker playing the Conductor must be one of them. */
  poolIds: readonly string[];
  maxSteps: number;
  access: AccessMode;
  /** Names the choice in messages, e.g. `Method "conductor:worker:x"`. */
  where: string;
  /**
   * The demo model, when chosen, gives way to random routing where the GPU cannot run it, as the Conductor page
   * promises (the episode then names random routing); absent, as in an evaluation: the load fails and says why.
   */
  demoGivesWay?: true;
}

/** One run the Conductor plans. */
export interface ConductorRun {
  task: Task;
  /** The workers the run calls. */
  pool: WorkerModel[];
  /** Seed of the run's sampling; random when absent (the episode records it). */
  seed?: number;
  /** Sample even a Conductor that plans greedily (a trained one): a comparison wants several plans for one question. */
  sample?: true;
  /** Records a worker outside the pool (a remote Conductor) as the pool's are. */
  record?: (worker: WorkerModel) => WorkerModel;
}

export interface ConductorMaker {
  /** Loads the model the choice runs on, once: later calls share the load, and one that failed is tried again. */
  load(signal?: AbortSignal): Promise<void>;
  /** The Conductor of one run, on the loaded model (loading it first if need be). */
  conductor(run: ConductorRun): Promise<Conductor>;
}

type Planner = (run: ConductorRun) => Conductor;

/** Errors after which the demo model gives way to random routing: the GPU cannot hold or run it. */
const GPU_TOO_WEAK = new Set(['engine/no-adapter', 'engine/gpu', 'engine/out-of-memory', 'engine/unsupported', 'engine/device-lost']);

const configError = (where: string, message: string) => new BatonError({ code: 'run/config', message: `${where}: ${message}` });

export const notInPool = (where: string, id: string, ids: readonly string[]) => configError(where, `no worker "${id}" in the pool (ids: ${ids.join(', ')}).`);

/** The host's errors while preparing name the choice too. */
async function named<T>(where: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    throw e instanceof BatonError ? new BatonError({ code: e.code, message: `${where}: ${e.message}`, data: e.data, cause: e, isRetryable: e.isRetryable }) : e;
  }
}

/** `conductor` generating in its turn on the host's GPU queue. */
function queued(conductor: Conductor, gpu: GpuTurns): Conductor {
  return { info: conductor.info, generate: (req) => gpu.run(() => conductor.generate(req), req.signal) };
}

const ready = (planner: Planner): ConductorMaker => ({ load: async () => {}, conductor: async (run) => planner(run) });

/** A maker whose planner comes from a load, shared by every call until one fails. */
function loading(load: (signal?: AbortSignal) => Promise<Planner>): ConductorMaker {
  let planner: Promise<Planner> | undefined;
  const once = (signal?: AbortSignal) => {
    if (!planner) {
      planner = load(signal);
      planner.catch(() => (planner = undefined));
    }
    return planner;
  };
  return { load: async (signal) => void (await once(signal)), conductor: async (run) => (await once())(run) };
}

function randomRouting(settings: ConductorSettings): Planner {
  return (run) => createRandomRoutingConductor({ workers: run.pool.length, maxSteps: settings.maxSteps, access: settings.access });
}

async function onEngine(model: EngineModelChoice, host: ConductorHost, settings: ConductorSettings, signal?: AbortSignal): Promise<Planner> {
  const loaded = await host.loadEngine(model, signal);
  const { maxSteps, access } = settings;
  return (run) => {
    const conductor = engineConductor(loaded, model, {
      workers: run.pool.length,
      maxSteps,
      access,
      task: run.task,
      pool: run.pool.map((w) => w.spec),
      seed: run.seed,
      ...(run.sample ? { sample: true } : {}),
    });
    return queued(conductor, host.gpu);
  };
}

/** The demo model, by default or chosen; random routing where the GPU cannot run it (the episode then names random routing). */
async function demoOrRandom(model: EngineModelChoice, host: ConductorHost, settings: ConductorSettings, signal?: AbortSignal): Promise<Planner> {
  try {
    return await onEngine(model, host, settings, signal);
  } catch (e) {
    if (e instanceof BatonError && GPU_TOO_WEAK.has(e.code)) return randomRouting(settings);
    throw e;
  }
}

async function onWebllm(modelId: string, host: ConductorHost, signal?: AbortSignal): Promise<Planner> {
  if (!host.loadWebllm) throw new Error(`A host without web-llm must refuse ${modelId} in cannotRun.`);
  const onModel = await host.loadWebllm(modelId, signal);
  return (run) => queued(onModel({ ...conductorSampling(run.seed), maxNewTokens: CONDUCTOR_MAX_NEW_TOKENS }), host.gpu);
}

/** The Conductor of `choice` for each run of an evaluation (or of one Ask): refused here, with `settings.where`, when the host cannot run it. */
export async function conductorMaker(choice: ConductorChoice, host: ConductorHost, settings: ConductorSettings): Promise<ConductorMaker> {
  const { where, poolIds } = settings;
  const refused = host.cannotRun(choice);
  if (refused !== undefined) throw configError(where, refused);
  switch (choice.kind) {
    case 'random-routing':
      return ready(randomRouting(settings));
    case 'demo-auto':
      // Random routing where WebGPU is missing or is a software renderer (far too slow to wait for).
      return loading(async (signal) =>
        (await host.hardwareGpu?.()) === false ? randomRouting(settings) : demoOrRandom(DEMO_ENGINE_MODEL, host, settings, signal),
      );
    case 'engine-model': {
      const { model } = choice;
      return loading((signal) => (model.source.from === 'demo' && settings.demoGivesWay ? demoOrRandom : onEngine)(model, host, settings, signal));
    }
    case 'webllm-model':
      return loading((signal) => onWebllm(choice.modelId, host, signal));
    case 'fixed-plan': {
      const text = await named(where, host.readPlan(choice.file));
      return ready(() => createFixedConductor(text, choice.file));
    }
    case 'pool-worker': {
      const id = choice.workerId;
      if (!poolIds.includes(id)) throw notInPool(where, id, poolIds);
      return ready((run) => {
        const worker = run.pool.find((w) => w.spec.id === id);
        if (!worker)
          throw notInPool(
            where,
            id,
            run.pool.map((w) => w.spec.id),
          );
        return createWorkerConductor(worker, { temperature: 1 });
      });
    }
    case 'remote-endpoint': {
      const worker = await named(where, host.remoteWorker(choice.baseUrl, choice.model));
      return ready((run) => createWorkerConductor(run.record?.(worker) ?? worker, { temperature: 1 }));
    }
  }
}

/** The Conductor of `choice` for one run: its model loaded (`signal` stops the load). */
export async function createConductor(
  choice: ConductorChoice,
  host: ConductorHost,
  settings: ConductorSettings,
  run: ConductorRun,
  signal?: AbortSignal,
): Promise<Conductor> {
  const maker = await conductorMaker(choice, host, settings);
  await maker.load(signal);
  return maker.conductor(run);
}
