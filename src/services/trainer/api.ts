/**
 * What the Train page and the trainer service exchange (through src/client): a run's settings (plain data,
 * stored with the run by training-db.ts so a reload resumes the very same run) with their defaults and
 * limits, the progress the page watches, and the service's type. The defaults suit any WebGPU, a software
 * one included: a few short sequences a step on the demo Conductor (baton train's settings, scaled down).
 * Types and constants only: the page's first paint carries them.
 */
import type { EngineModelSource } from '../../core/conductor/index.ts';
import type { ProviderConcurrency } from '../../core/orchestra/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import type { RecordedPoolName } from '../../core/providers/replay/index.ts';
import type { GrpoStepMetrics } from '../../core/rl/index.ts';

export type { TrainerService } from './trainer-service.ts';
export type { TrainingEstimate } from './tab-training.ts';

export interface TrainingConfig {
  /**
   * 'experts': the experts pool (one worker best at multiple choice, another at arithmetic); 'pool': the Workers
   * page's pool; a recorded pool (core/providers/replay's RECORDED_POOLS): real models replaying their recorded answers.
   */
  preset: 'experts' | 'pool' | RecordedPoolName;
  /** The workers (the experts pool, or a copy of the user's), without keys. */
  pool: WorkerSpec[];
  /**
   * The questions, of the experts pool's two kinds (multiple choice, arithmetic): 'experts-short', short
   * generated ones (a dozen tokens, fast steps), or 'experts', MMLU and GSM8K from data/ (a hundred and more);
   * or a recorded pool's questions ('zeroeval', 'routerbench').
   */
  tasks: 'experts-short' | 'experts' | 'zeroeval' | 'routerbench';
  /** The Conductor being trained: the demo Conductor, or a model of the user's (Hub repo or URL). */
  model: EngineModelSource;
  steps: number;
  /** Questions per step (Q). */
  questions: number;
  /** Workflows sampled per question (G). */
  group: number;
  lr: number;
  /** LoRA rank; alpha is 2r. */
  r: number;
  maxCompletionTokens: number;
  /** Longest subtask text the format constraint allows: short keeps an untrained Conductor's noise, and its steps, short. */
  maxSubtaskChars: number;
  /**
   * Every subtask a fixed text (core/workflow's FIXED_SUBTASKS), so the Conductor learns which workers answer
   * and not what to tell them: free subtask characters add noise with the weight of the worker choice
   * (bench/LEARNING.md). Absent: free subtasks of up to maxSubtaskChars.
   */
  fixedSubtasks?: boolean;
  /** Most steps per workflow. */
  maxSteps: number;
  /**
   * Each question's group is every worker's plan once instead of `group` samples (core/rl/every-plan.ts): exact
   * advantages for a routing Conductor; needs fixedSubtasks and maxSteps 1, and runs every worker on every question.
   */
  everyPlan?: boolean;
  /** Held-out accuracy every this many steps (0: never). */
  evalEvery: number;
  /** Held-out questions evaluated (one greedy plan each). */
  heldOut: number;
  checkpointEvery: number;
  seed: number;
  /**
   * lambda of the cost-aware reward, the paper's (1 right, 0.5 wrong) minus lambda x the workflow's dollars
   * (absent: 0). Above 0 the rewards are left unscaled, as `bench:cost-frontier` trains.
   */
  costWeight?: number;
  /** Recursion rounds after the first (absent: 0); the first round's plan trains on (1 - d) r0 + d r1 (core/rl/recursion-reward.ts). */
  recursionDepth?: number;
  /** Worker calls in flight per provider (absent: core/orchestra's defaults, 8 per network API, simulated uncapped). */
  concurrency?: ProviderConcurrency;
  /** false: every worker call is sent; absent or true: a step's identical calls are sent once and share the answer. */
  responseCache?: boolean;
}

/** The recorded pools the Train page offers, with the question set each trains on (docs/pools.md). */
export const RECORDED_PRESETS: Record<RecordedPoolName, { tasks: 'zeroeval' | 'routerbench'; label: string }> = {
  'routerbench-4': { tasks: 'routerbench', label: "RouterBench's GPT-4, GPT-3.5, Yi-34B and Mistral-7B, replaying their recorded answers" },
  routerbench: { tasks: 'routerbench', label: "RouterBench's 11 models, replaying their recorded answers" },
  'zeroeval-4': { tasks: 'zeroeval', label: "ZeroEval's gpt-4o, gpt-4o-mini, deepseek-v2.5 and gemma-2-9b, replaying their recorded answers" },
  zeroeval: { tasks: 'zeroeval', label: "ZeroEval's 27 models recorded on every question, replaying their answers" },
};

/** Most recursion rounds a tab run may ask for: each one runs every plan's workflow again. */
export const MAX_TRAINING_RECURSION = 3;

export const DEFAULT_TRAINING: Omit<TrainingConfig, 'pool'> = {
  preset: 'experts',
  tasks: 'experts-short',
  model: { from: 'demo' },
  steps: 20,
  questions: 4,
  group: 4,
  // The learning rate of baton train's recipe for small Conductors (README): 1e-3 barely moves an r-8 adapter in 20 steps.
  lr: 1e-2,
  r: 8,
  maxCompletionTokens: 56,
  maxSubtaskChars: 6,
  // The demo Conductor learnt with fixed subtasks; free ones of 6 characters are noise, and can end inside a character.
  fixedSubtasks: true,
  maxSteps: 2,
  evalEvery: 5,
  heldOut: 8,
  checkpointEvery: 1,
  seed: 0,
};

/** Each number's allowed range: beyond it a run cannot work (G < 2 has nothing to compare) or cannot fit a tab. */
export const TRAINING_LIMITS = {
  steps: [1, 10_000],
  questions: [1, 64],
  group: [2, 64],
  lr: [1e-7, 1],
  r: [1, 256],
  maxCompletionTokens: [8, 4096],
  maxSubtaskChars: [1, 1000],
  maxSteps: [1, 10],
  evalEvery: [0, 10_000],
  heldOut: [1, 200],
  checkpointEvery: [1, 10_000],
  seed: [0, 2 ** 31 - 1],
} as const satisfies Partial<Record<keyof TrainingConfig, readonly [number, number]>>;

export type TrainerStatus = 'idle' | 'starting' | 'running' | 'pausing' | 'paused' | 'stopping' | 'stopped' | 'done' | 'failed';

/** One sampled workflow of the latest group, as the page lists it. */
export interface SampledPlan {
  /** "worker label: subtask" per step; empty when the plan did not parse. */
  steps: string[];
  parseError?: string;
  reward: number;
  correct: boolean;
}

export interface LatestGroup {
  step: number;
  question: string;
  kind: string;
  plans: SampledPlan[];
}

/** Everything the page shows of the run, sent whole on every change. */
export interface TrainingProgress {
  status: TrainerStatus;
  runId?: string;
  config?: TrainingConfig;
  /** One entry per finished step, those before a resume included. */
  metrics: GrpoStepMetrics[];
  /** What the run does now, in words ("Loading …", "Step 3: sampling and scoring"). */
  phase?: string;
  latestGroup?: LatestGroup;
  /** Mean wall time of this session's steps, for the time left. */
  msPerStep?: number;
  error?: { code: string; message: string };
  /** Something went wrong that did not stop the run (an episode that could not be stored). */
  warning?: string;
  /** A checkpoint is stored: its adapter can be exported or used as the Conductor. */
  hasAdapter: boolean;
}

/** How often a Conductor's plan followed the user's held-out picks (core/conductor's pickAgreement). */
export interface PickCheck {
  agreed: number;
  total: number;
}

/** What "train on my choices" trained on (picks and held-out picks, rated prompts), and the held-out check before and after. */
export interface ChoiceTrainingSummary {
  picks: { train: number; heldOut: number };
  ratedPrompts: number;
  before: PickCheck;
  after: PickCheck;
}

/** "Train on my choices": offline GRPO on the user's picks and ratings, checked on their latest picks. */
export interface ChoiceTrainingProgress {
  status: 'running' | 'done' | 'failed' | 'stopped';
  /** What it does now, in words. */
  phase?: string;
  step?: number;
  steps?: number;
  /** Once done (also after a reload, until the next training replaces it). */
  result?: ChoiceTrainingSummary;
  error?: { code: string; message: string };
}
