/**
 * How the app runs a Conductor on the engine. The demo Conductor writes the lists alone (no reasoning)
 * in the format it was trained under (core/rl's DEMO_CONDUCTOR_FORMAT: the compact prompt, fixed
 * subtasks, at most two steps), under a token budget that always reaches the end of the lists; with an
 * adapter of the user's, it writes short subtasks of its own. A model of the user's own may reason
 * first, unless its choice says lists only (then the same kind of budget, with subtasks of the
 * constraint's usual length). Sampling is at temperature 1 with a fresh
 * seed per question, which the episode records, so a run can be repeated; the demo alone plans greedily.
 */
import type { Conductor } from '../../core/orchestra/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import type { Task } from '../../core/task.ts';
import type { AccessMode } from '../../core/workflow/index.ts';
import type { EngineModelChoice } from './conductor-choice.ts';
import type { LoadedEngine } from './engine-host.ts';

/** Short enough for the demo model with an adapter to finish quickly on a software GPU. */
const DEMO_MAX_SUBTASK_CHARS = 80;
/** A real Conductor's reasoning and lists fit in this (the paper's Conductor writes well under it). */
export const CONDUCTOR_MAX_NEW_TOKENS = 2048;

/** Temperature 1 and a seed for this question (random unless given), which the episode records. */
export function conductorSampling(seed?: number): { temperature: number; seed: number } {
  return { temperature: 1, seed: seed ?? Math.floor(Math.random() * 2 ** 32) };
}

export interface EngineRunContext {
  workers: number;
  /** The question and the pool's specs, for a choice whose prompt is its own (compact). */
  task?: Task;
  pool?: WorkerSpec[];
  maxSteps: number;
  access: AccessMode;
  /** Seed of this question's sampling; random unless a test fixes it. */
  seed?: number;
}

export async function engineConductor(engine: LoadedEngine, choice: EngineModelChoice, ctx: EngineRunContext): Promise<Conductor> {
  const [{ createEngineConductor }, { workflowTokenBound }, rl] = await Promise.all([
    import('./engine-conductor.ts'),
    import('../../core/workflow/constrain/index.ts'),
    import('../../core/rl/index.ts'),
  ]);
  const demo = choice.source.from === 'demo';
  // The demo model alone runs as it was trained; with an adapter, as the adapter's choice says.
  const trained = demo && !choice.adapter ? rl.DEMO_CONDUCTOR_FORMAT : undefined;
  const reasoning = !demo && choice.reasoning !== false;
  const format = {
    workers: ctx.workers,
    maxSteps: trained ? Math.min(ctx.maxSteps, trained.maxSteps) : ctx.maxSteps,
    access: ctx.access,
    ...(trained ? { fixedSubtasks: trained.fixedSubtasks } : demo ? { maxSubtaskChars: DEMO_MAX_SUBTASK_CHARS } : {}),
  };
  const maxNewTokens = reasoning ? CONDUCTOR_MAX_NEW_TOKENS : workflowTokenBound(format);
  // The demo plans greedily: its most likely plan is the routing it learnt (and what its held-out accuracy measured).
  const sampling = { ...conductorSampling(ctx.seed), ...(trained ? { temperature: 0 } : {}) };
  // Only the first round: a recursion round continues the conversation the first one began.
  const firstRound = (trained || choice.prompt === 'compact') && ctx.task && ctx.pool ? rl.compactPrompt(ctx.task, ctx.pool, format) : undefined;
  return createEngineConductor({
    model: engine.model,
    tokenizer: engine.tokenizer,
    ...format,
    sampling,
    constrain: true,
    allowReasoning: reasoning,
    maxNewTokens,
    ...(firstRound ? { firstRoundMessages: firstRound } : {}),
    info: {
      runtime: 'engine',
      model: engine.info.model,
      ...(engine.info.adapter ? { adapter: engine.info.adapter } : {}),
      sampling: { ...sampling, maxNewTokens },
    },
  });
}
