/**
 * Conductor choices (core/bench's parseConductorSpec: fixed:<file>, worker:<id>, engine:<dir>[,lora=<dir>],
 * remote:<model>@<url>) made into Conductors under Node, for `baton run --conductor` and `baton eval
 * --method conductor:<choice>` alike. An engine model is loaded once and sampled with each run's seed.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createPolicyConductor, parseConductorSpec, poolWorkerConductor, type ConductorSpec, type MethodRun } from '../core/bench/index.ts';
import { BatonError } from '../core/errors/index.ts';
import { createFixedConductor, createWorkerConductor, type Conductor } from '../core/orchestra/index.ts';
import { loadProviders, resolveApiKey, type WorkerModel } from '../core/providers/index.ts';
import { readTrainedFormat, trainedPrompt, trainedWorkflowFormat } from '../core/rl/index.ts';
import type { Task } from '../core/task.ts';
import { DEFAULT_MAX_STEPS } from '../core/workflow/index.ts';
import { workflowConstraintFor } from '../core/workflow/constrain/index.ts';
import { filesFromDir } from '../engine/model/files-node.ts';
import { CliError, type CliIo } from './io.ts';
import { NodeLocalModels } from './local-models.ts';

export { CONDUCTOR_SPEC_HELP } from '../core/bench/index.ts';

/** Most tokens an engine or remote Conductor writes: its reasoning and the three lists. */
const CONDUCTOR_MAX_NEW_TOKENS = 1024;

export interface ConductorContext {
  cwd: string;
  env: CliIo['env'];
  /** An adapter for an engine choice that names none (--lora). */
  lora?: string;
  /** The pool's local models: an engine Conductor on one of their directories shares its load and GPU queue. */
  models?: NodeLocalModels;
}

/** What makes a Conductor for one run (its task, seed and recorded pool); `close` frees a loaded model. */
export interface ConductorMaker {
  make: (run: Pick<MethodRun, 'task' | 'seed' | 'pool' | 'record'>) => Conductor;
  close: () => void;
}

export function parseConductorFlag(text: string): ConductorSpec {
  try {
    return parseConductorSpec(text);
  } catch (e) {
    throw new CliError(`--conductor: ${(e as BatonError).message}`, 2);
  }
}

async function fixedConductor(file: string, cwd: string, where: string): Promise<ConductorMaker> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new CliError(`${where}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  return { make: () => createFixedConductor(text, file), close: () => {} };
}

async function engineConductor(spec: Extract<ConductorSpec, { kind: 'engine' }>, ctx: ConductorContext, workers: number): Promise<ConductorMaker> {
  const { EnginePolicy } = await import('../engine/index.ts');
  const lora = spec.lora ?? ctx.lora;
  const ref = { modelDir: spec.model, ...(lora ? { loraDir: lora } : {}) };
  const models = ctx.models ?? new NodeLocalModels(ctx.cwd);
  const loaded = await models.open(ref);
  const policy = new EnginePolicy(loaded.model, loaded.tokenizer!);
  const info = { runtime: 'engine', model: spec.model, ...(lora ? { adapter: lora } : {}) };
  const trained = await readTrainedFormat([lora, spec.model].map((d) => (d === undefined ? undefined : filesFromDir(resolve(ctx.cwd, d))))).catch((e: unknown) => {
    throw new CliError((e as BatonError).message);
  });
  const settings = {
    info,
    workers,
    maxNewTokens: spec.maxTokens ?? CONDUCTOR_MAX_NEW_TOKENS,
    temperature: 1,
    ...(trained?.constrain
      ? { constraint: (n: number, recursion?: boolean) => workflowConstraintFor(loaded.tokenizer!, loaded.model.config.vocabSize, trainedWorkflowFormat(trained, n, recursion)) }
      : {}),
  };
  return {
    make: (run) => {
      const format = { maxSteps: trained?.maxSteps ?? DEFAULT_MAX_STEPS, access: 'binary' as const };
      const firstRound = trained ? trainedPrompt(trained)(run.task, run.pool.map((w) => w.spec), format) : undefined;
      const conductor = createPolicyConductor(policy, { ...settings, seed: run.seed, ...(firstRound ? { firstRoundMessages: firstRound } : {}) });
      // In turn with the pool's local workers, which may run on this very model.
      return { info: conductor.info, generate: (req) => models.gpu.run(() => conductor.generate(req), req.signal) };
    },
    close: () => {
      // The pool's models are closed by whoever made them.
      if (!ctx.models) void models.close();
    },
  };
}

async function remoteConductor(spec: Extract<ConductorSpec, { kind: 'remote' }>, env: CliIo['env']): Promise<ConductorMaker> {
  const { createWorkerModel } = await loadProviders();
  const workerSpec = { id: 'remote-conductor', provider: 'openai-compatible' as const, model: spec.model, baseUrl: spec.baseUrl };
  const { key, keyName } = resolveApiKey(workerSpec, env);
  const worker = createWorkerModel(workerSpec, { apiKey: key, keyName });
  return { make: (run) => createWorkerConductor(run.record(worker), { temperature: 1, maxTokens: CONDUCTOR_MAX_NEW_TOKENS }), close: () => {} };
}

/**
 * A Conductor maker for a choice over the pool `poolIds` (worker:<id> is checked against it); `where`
 * names the flag in messages.
 */
export async function conductorMaker(spec: ConductorSpec, ctx: ConductorContext, poolIds: readonly string[], where: string): Promise<ConductorMaker> {
  switch (spec.kind) {
    case 'fixed':
      return fixedConductor(spec.file, ctx.cwd, where);
    case 'worker':
      if (!poolIds.includes(spec.id)) throw new CliError(`${where}: no worker "${spec.id}" in the pool (ids: ${poolIds.join(', ')}).`, 2);
      return { make: poolWorkerConductor(spec.id), close: () => {} };
    case 'engine':
      if (spec.weights || spec.reasoning === false || spec.prompt) {
        throw new CliError(`${where}: weights=, reasoning= and prompt= are the Evaluate page's engine options; under Node the model runs as its directory holds it.`, 2);
      }
      return engineConductor(spec, ctx, poolIds.length);
    case 'webllm':
      throw new CliError(`${where}: web-llm runs in a browser tab: evaluate ${spec.model} on the Evaluate page.`, 2);
    case 'remote':
      return remoteConductor(spec, ctx.env);
  }
}

/** The one Conductor of `baton run`, for its task. */
export async function conductorFromSpec(text: string, ctx: ConductorContext & { pool: WorkerModel[]; task: Task }): Promise<ConductorMaker & { conductor: Conductor }> {
  const maker = await conductorMaker(parseConductorFlag(text), ctx, ctx.pool.map((w) => w.spec.id), `--conductor ${text}`);
  const seed = Math.floor(Math.random() * 2 ** 32);
  return { ...maker, conductor: maker.make({ task: ctx.task, seed, pool: ctx.pool, record: (w) => w }) };
}
