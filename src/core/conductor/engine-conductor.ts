/**
 * How a model on Baton's engine plays the Conductor, in the tab and under Node alike (createPolicyConductor over
 * the host's policy). A Conductor with a trained format (conductor.json beside its adapter or model: the demo
 * Conductor's, one trained on the Train page or by baton train) runs as it was trained: its prompt, its lists
 * under its constraint, at most its number of steps, planning greedily, since its most likely plan is the
 * routing it learnt (what its held-out accuracy measured), unless the run asks for samples (a comparison). Any other model gets the Ask prompt (or the compact
 * one its choice names) under the constraint, reasoning first unless its choice says lists only, sampled at
 * temperature 1 with a seed per run, which the episode records, so a run can be repeated.
 */
import type { Conductor } from '../orchestra/index.ts';
import type { WorkerSpec } from '../providers/index.ts';
import { compactPrompt, trainedPrompt, trainedWorkflowFormat, type Policy, type TrainedFormat } from '../rl/index.ts';
import type { Task } from '../task.ts';
import type { AccessMode } from '../workflow/index.ts';
import { workflowConstraintFor, workflowTokenBound, type VocabTokenizer, type WorkflowFormat } from '../workflow/constrain/index.ts';
import { createPolicyConductor } from './policy-conductor.ts';
import type { EngineModelChoice } from './conductor-choice.ts';

/** A real Conductor's reasoning and lists fit in this (the paper's Conductor writes well under it). */
export const CONDUCTOR_MAX_NEW_TOKENS = 2048;

/** Temperature 1 and a seed for this run (random unless given), which the episode records. */
export function conductorSampling(seed?: number): { temperature: number; seed: number } {
  return { temperature: 1, seed: seed ?? Math.floor(Math.random() * 2 ** 32) };
}

/** A model the host loaded on Baton's engine: the policy that samples, its tokenizer for the constraint, how it was trained. */
export interface LoadedConductorModel {
  policy: Policy;
  tokenizer: VocabTokenizer;
  vocabSize: number;
  /** The model and its adapter, as the episode names them. */
  model: string;
  adapter?: string;
  /** How it was trained to run (conductor.json): its adapter's, else its model's; none for a model without one. */
  format?: TrainedFormat;
}

export interface EngineRunContext {
  workers: number;
  /** The question and the pool's specs, for a Conductor whose first prompt is its own (trained, or compact). */
  task?: Task;
  pool?: WorkerSpec[];
  maxSteps: number;
  access: AccessMode;
  /** Seed of this run's sampling; random unless given. */
  seed?: number;
  /** Sample a trained Conductor too (temperature 1), where a comparison wants several plans rather than its best one. */
  sample?: boolean;
}

export function engineConductor(loaded: LoadedConductorModel, choice: EngineModelChoice, ctx: EngineRunContext): Conductor {
  const trained = loaded.format;
  const maxSteps = Math.min(ctx.maxSteps, trained?.maxSteps ?? ctx.maxSteps);
  const formatFor = (workers: number, recursion = false): WorkflowFormat =>
    trained
      ? { ...trainedWorkflowFormat(trained, workers, recursion), maxSteps }
      : { workers, maxSteps, access: ctx.access, allowReasoning: choice.reasoning !== false, recursion };
  const constrained = trained?.constrain ?? true;
  const format = formatFor(ctx.workers);
  const access = format.access ?? ctx.access;
  const bound = constrained && !format.allowReasoning ? workflowTokenBound(format) : CONDUCTOR_MAX_NEW_TOKENS;
  const sampling = { ...conductorSampling(ctx.seed), ...(trained && !ctx.sample ? { temperature: 0 } : {}) };
  const prompt = trained ? trainedPrompt(trained) : choice.prompt === 'compact' ? compactPrompt : undefined;
  // Only the first round: a recursion round continues the conversation the first one began.
  const firstRound = prompt && ctx.task && ctx.pool ? prompt(ctx.task, ctx.pool, { maxSteps, access }) : undefined;
  return createPolicyConductor(loaded.policy, {
    info: { runtime: 'engine', model: loaded.model, ...(loaded.adapter ? { adapter: loaded.adapter } : {}) },
    workers: ctx.workers,
    maxNewTokens: choice.maxTokens ?? bound,
    ...sampling,
    ...(constrained
      ? { constraint: (workers: number, recursion?: boolean) => workflowConstraintFor(loaded.tokenizer, loaded.vocabSize, formatFor(workers, recursion)) }
      : {}),
    ...(firstRound ? { firstRoundMessages: firstRound } : {}),
  });
}
