/**
 * The tab's own Conductors as evaluation methods, run inside the evaluator worker: the demo Conductor, an
 * engine model with or without an adapter, a web-llm model; the Conductor page's choices, written as
 * core/bench method strings (conductor:engine:demo, conductor:engine:<repo or URL>[,lora=trained:<name>],
 * conductor:webllm:<model id>). Each method runs on ConductorRuntimes of its own (the conductor worker's code:
 * Baton's engine, web-llm), so two model methods keep both models loaded instead of swapping them run by
 * run, and each is built as the app builds it (engineConductor, createWebllmConductor). A method's Conductor
 * calls take turns while the workers of other runs go on: web-llm answers one chat at a time (its interrupt
 * stops whatever it generates, not one request), and on the engine two plans would only interleave their passes.
 * Test: test/unit/services/evaluator/tab-conductor.test.ts; in Chromium, test/e2e/evaluate-conductor.test.ts.
 */
import type { ConductorSpec, MethodRun } from '../../core/bench/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import type { Conductor } from '../../core/orchestra/index.ts';
import type { AccessMode } from '../../core/workflow/index.ts';
import {
  CONDUCTOR_MAX_NEW_TOKENS,
  DEMO_ENGINE_MODEL,
  conductorSampling,
  createWebllmConductor,
  engineConductor,
  hubRepoId,
  type ConductorLoadStatus,
  type ConductorRuntimes,
  type EngineAdapterSource,
  type EngineFilesSource,
  type EngineModelChoice,
  type LoadProgress,
} from '../conductor/index.ts';

export type TabConductorSpec = Extract<ConductorSpec, { kind: 'engine' | 'webllm' }>;

/** The access lists a tab Conductor writes: binary, the executor's default, under which an evaluation's runs check every workflow. */
const TAB_CONDUCTOR_ACCESS: AccessMode = 'binary';

const notHere = (method: string, what: string) =>
  new BatonError({
    code: 'run/config',
    message: `Method "${method}": ${what} On this page an engine model is demo, a Hub repo (owner/name) or a URL, and an adapter trained:<name>, a Hub repo or a URL; a model directory is for baton eval.`,
  });

function filesSource(text: string, method: string, what: string): EngineFilesSource {
  const repo = hubRepoId(text);
  if (repo) return { from: 'hub', repo };
  if (/^https?:\/\/\S+$/.test(text)) return { from: 'url', url: text };
  throw notHere(method, `${what} "${text}" is neither a Hub repo nor a URL.`);
}

function adapterSource(text: string, method: string): EngineAdapterSource {
  return text.startsWith('trained:') && text.length > 'trained:'.length ? { from: 'trained', name: text.slice('trained:'.length) } : filesSource(text, method, 'the adapter');
}

/** The Conductor page's engine choice an engine method names: its weights default as the page's do (the demo f32, others auto). */
export function engineChoiceOf(spec: Extract<ConductorSpec, { kind: 'engine' }>, method: string): EngineModelChoice {
  const source = spec.model === 'demo' ? DEMO_ENGINE_MODEL.source : filesSource(spec.model, method, 'the model');
  if (spec.maxTokens !== undefined) throw notHere(method, 'max-tokens is for baton eval: the tab runs a model with the budget the app gives it.');
  return {
    source,
    weights: spec.weights ?? (source.from === 'demo' ? DEMO_ENGINE_MODEL.weights : 'auto'),
    ...(spec.lora ? { adapter: adapterSource(spec.lora, method) } : {}),
    ...(spec.reasoning === false ? { reasoning: false as const } : {}),
    ...(spec.prompt ? { prompt: spec.prompt } : {}),
  };
}

export interface TabConductorContext {
  workers: number;
  maxSteps: number;
  /** This method's alone while the evaluation runs; their watchers see its load's progress. */
  runtimes: ConductorRuntimes;
}

export interface TabConductor {
  /** Loads the model once (later calls share the load); rejects with why it cannot run in this tab. */
  load(signal?: AbortSignal): Promise<void>;
  /** A Conductor for one run, on the loaded model, sampling from the run's seed. */
  conductor(run: MethodRun): Promise<Conductor>;
  /** Frees the model's GPU memory (the runtimes keep their GPU device for the next evaluation). */
  close(): Promise<void>;
}

/** Calls of `f` one after the other, in the order made. */
export function oneAtATime(): <T>(f: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (f) => {
    const next = last.then(f, f);
    last = next.catch(() => {});
    return next;
  };
}

/** Another Conductor whose generate calls wait their turn. */
export function inTurns(conductor: Conductor, turn: ReturnType<typeof oneAtATime>): Conductor {
  return { info: conductor.info, generate: (req) => turn(() => conductor.generate(req)) };
}

/** The method's Conductor, its model not yet loaded; a choice the tab cannot name (a model directory) throws here. */
export function tabConductor(spec: TabConductorSpec, method: string, ctx: TabConductorContext): TabConductor {
  const model = spec.kind === 'engine' ? engineChoiceOf(spec, method) : undefined;
  const { runtimes } = ctx;
  const turn = oneAtATime();
  const format = { workers: ctx.workers, maxSteps: ctx.maxSteps, access: TAB_CONDUCTOR_ACCESS };
  let loading: Promise<(run: MethodRun) => Promise<Conductor>> | undefined;

  const loadEngine = async (choice: EngineModelChoice, signal?: AbortSignal) => {
    const support = await runtimes.engine.support();
    if (!support.ok) throw new BatonError({ code: 'engine/no-adapter', message: support.message });
    const engine = await runtimes.readyEngine(choice, signal);
    return (run: MethodRun) => engineConductor(engine, choice, { ...format, task: run.task, pool: run.pool.map((w) => w.spec), seed: run.seed });
  };
  const loadWebllm = async (modelId: string, signal?: AbortSignal) => {
    const ready = await runtimes.readyWebllm(modelId, signal);
    return async (run: MethodRun) => createWebllmConductor(ready.engine, ready.choice, { ...conductorSampling(run.seed), maxNewTokens: CONDUCTOR_MAX_NEW_TOKENS });
  };

  const load = (signal?: AbortSignal) => {
    if (!loading) {
      loading = model ? loadEngine(model, signal) : loadWebllm(spec.model, signal);
      // A failed or cancelled load is tried again by the next call (a resume).
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };
  return {
    load: async (signal) => void (await load(signal)),
    conductor: async (run) => inTurns(await (await load())(run), turn),
    async close() {
      loading = undefined;
      runtimes.engine.unload();
      await runtimes.webllm.unload();
    },
  };
}

const MB = 2 ** 20;
const DOING: Record<LoadProgress['phase'], string> = { download: 'downloading', gpu: 'copying to the GPU', shaders: 'compiling GPU shaders' };

/** How far a load is: megabytes, or the engine's tensors and web-llm's shader modules. */
function amount(p: LoadProgress): string {
  const n = (x: number) => (p.unit === 'bytes' ? (x / MB).toFixed(1) : String(x));
  return `${n(p.loaded)}${p.total === undefined ? '' : ` of ${n(p.total)}`} ${p.unit === 'bytes' ? 'MB' : p.phase === 'shaders' ? 'shaders' : 'tensors'}`;
}

/** A model load in progress, in words, for the evaluation's phase line. */
export const loadPhase = (status: ConductorLoadStatus): string =>
  `Loading ${status.model}${status.progress ? `: ${DOING[status.progress.phase]}, ${amount(status.progress)}` : ''}`;
