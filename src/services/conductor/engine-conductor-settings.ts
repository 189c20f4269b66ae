/**
 * How the app runs a Conductor on the engine (core/bench's createPolicyConductor over EnginePolicy, as
 * `baton run` and `baton eval` do). A Conductor with a trained format (conductor.json beside its
 * adapter or model: the demo Conductor's, one trained on the Train page or by baton train) runs as it
 * was trained: its prompt, its lists under its constraint, at most its number of steps, planning
 * greedily, since its most likely plan is the routing it learnt (what its held-out accuracy measured).
 * Any other model gets the Ask prompt (or the compact one its choice names) under the constraint,
 * reasoning first unless its choice says lists only, sampled at temperature 1 with a fresh seed per
 * question, which the episode records, so a run can be repeated.
 */
import type { Conductor } from '../../core/orchestra/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import type { Task } from '../../core/task.ts';
import type { AccessMode } from '../../core/workflow/index.ts';
import type { WorkflowFormat } from '../../core/workflow/constrain/index.ts';
import type { EngineModelChoice } from './conductor-choice.ts';
import type { LoadedEngine } from './engine-host.ts';

/** A real Conductor's reasoning and lists fit in this (the paper's Conductor writes well under it). */
export const CONDUCTOR_MAX_NEW_TOKENS = 2048;

/** Temperature 1 and a seed for this question (random unless given), which the episode records. */
export function conductorSampling(seed?: number): { temperature: number; seed: number } {
  return { temperature: 1, seed: seed ?? Math.floor(Math.random() * 2 ** 32) };
}

export interface EngineRunContext {
  workers: number;
  /** The question and the pool's specs, for a Conductor whose first prompt is its own (trained, or compact). */
  task?: Task;
  pool?: WorkerSpec[];
  maxSteps: number;
  access: AccessMode;
  /** Seed of this question's sampling; random unless a test fixes it. */
  seed?: number;
}

export async function engineConductor(engine: LoadedEngine, choice: EngineModelChoice, ctx: EngineRunContext): Promise<Conductor> {
  const [{ createPolicyConductor }, { workflowConstraintFor, workflowTokenBound }, rl, { EnginePolicy }] = await Promise.all([
    import('../../core/bench/index.ts'),
    import('../../core/workflow/constrain/index.ts'),
    import('../../core/rl/index.ts'),
    import('../../engine/index.ts'),
  ]);
  const trained = engine.info.format;
  const maxSteps = Math.min(ctx.maxSteps, trained?.maxSteps ?? ctx.maxSteps);
  const formatFor = (workers: number, recursion = false): WorkflowFormat =>
    trained
      ? { ...rl.trainedWorkflowFormat(trained, workers, recursion), maxSteps }
      : { workers, maxSteps, access: ctx.access, allowReasoning: choice.reasoning !== false, recursion };
  const constrained = trained?.constrain ?? true;
  const format = formatFor(ctx.workers);
  const access = format.access ?? ctx.access;
  const maxNewTokens = constrained && !format.allowReasoning ? workflowTokenBound(format) : CONDUCTOR_MAX_NEW_TOKENS;
  const sampling = { ...conductorSampling(ctx.seed), ...(trained ? { temperature: 0 } : {}) };
  const prompt = trained ? rl.trainedPrompt(trained) : choice.prompt === 'compact' ? rl.compactPrompt : undefined;
  // Only the first round: a recursion round continues the conversation the first one began.
  const firstRound = prompt && ctx.task && ctx.pool ? prompt(ctx.task, ctx.pool, { maxSteps, access }) : undefined;
  return createPolicyConductor(new EnginePolicy(engine.model, engine.tokenizer), {
    info: { runtime: 'engine', model: engine.info.model, ...(engine.info.adapter ? { adapter: engine.info.adapter } : {}) },
    workers: ctx.workers,
    maxNewTokens,
    ...sampling,
    ...(constrained ? { constraint: (workers: number, recursion?: boolean) => workflowConstraintFor(engine.tokenizer, engine.model.config.vocabSize, formatFor(workers, recursion)) } : {}),
    ...(firstRound ? { firstRoundMessages: firstRound } : {}),
  });
}
