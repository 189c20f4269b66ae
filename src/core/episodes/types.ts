import type { Task } from '../task.ts';
import type { ChatMessage, Usage, WorkerSpec } from '../providers/index.ts';
import type { Access, Workflow } from '../workflow/index.ts';
import type { Reward } from '../reward/index.ts';

export const EPISODE_VERSION = 1;

export interface ConductorInfo {
  /** 'fixed' | 'worker' | 'engine' | 'webllm' | 'remote' | 'demo' ... */
  runtime: string;
  model: string;
  adapter?: string;
  sampling?: { temperature?: number; topP?: number; topK?: number; maxNewTokens?: number; seed?: number };
}

export interface StepRecord {
  /** Index of the step in its round's workflow. */
  index: number;
  worker: number;
  workerId: string;
  subtask: string;
  access: Access;
  /** Exactly what the worker was sent. */
  messages: ChatMessage[];
  output: string;
  usage: Usage;
  /** null when the model's price is unknown. */
  costUsd: number | null;
  latencyMs: number;
  attempts: number;
  /**
   * Served from the run's response cache: an identical call of the same run was paid for; costUsd is still
   * the call's price (what the workflow asked for), but no dollar was spent on this step.
   */
  fromCache?: boolean;
  error?: { code: string; message: string };
  /**
   * The step's own worker failed past its retries and its fallback answered: `worker`, `workerId` and the
   * figures above are the fallback's call, `from` the failed one (sent the same messages, with its own
   * prefill). Its cost is null when the provider never said what it used.
   */
  fallback?: { from: FailedCall };
}

/** A worker call that failed, kept beside the call that replaced it. */
export interface FailedCall {
  worker: number;
  workerId: string;
  error: { code: string; message: string };
  usage: Usage;
  costUsd: number | null;
  latencyMs: number;
  attempts: number;
}

/** What the Conductor wrote; usage and cost where its runtime bills them (a pool worker playing it). */
export interface Completion {
  text: string;
  tokenIds?: number[];
  logprobs?: number[];
  usage?: Usage;
  costUsd?: number | null;
}

export interface RoundRecord {
  /** The Conductor's prompt and completion for this round (round 0 mirrors the top-level fields). */
  prompt: ChatMessage[];
  completion: Completion;
  workflow?: Workflow;
  parseError?: string;
  /** True when the Conductor answered three empty lists (keep the previous answer). */
  kept?: boolean;
  steps: StepRecord[];
  final: string;
}

export interface Episode {
  id: string;
  version: typeof EPISODE_VERSION;
  createdAt: string; // ISO 8601
  task: Task;
  /** WorkerSpecs as used, never with keys. */
  pool: WorkerSpec[];
  conductor: ConductorInfo;
  /** First round's Conductor prompt, completion, workflow and steps. */
  prompt: ChatMessage[];
  completion: Completion;
  workflow?: Workflow;
  parseError?: string;
  steps: StepRecord[];
  /** Later recursion rounds (index 1...), empty when no recursion. */
  rounds: RoundRecord[];
  final: string;
  reward?: Reward;
  /** GRPO group id, when the episode is one rollout of a group. */
  group?: string;
  /** The Ask page's conversation this episode is a turn of (turn 0 first). */
  conversation?: { id: string; turn: number };
  tags: string[];
  /** Every worker call's, and the Conductor's own where it has usage. */
  totals: { usage: Usage; costUsd: number | null; latencyMs: number };
  /** Why the run stopped where no step says so (the Conductor's own call failed). */
  error?: { code: string; message: string };
  status: 'ok' | 'format-error' | 'infra-error' | 'aborted' | 'budget';
}
