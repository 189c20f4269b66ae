/**
 * A Policy that GRPO can train in place: one optimiser step per trainStep on a GrpoBatch, the loss
 * being core/rl's grpoLoss (so every runtime trains on the same definition). Types only: Baton's
 * engine implements it. mu > 1 updates on one batch (TRL's num_iterations) are mu calls with the same
 * batch carrying old_logprobs. Defaults below are TRL's GRPOConfig's, where Baton keeps them.
 */
import type { RewardScaling } from './advantages.ts';
import type { GrpoBatch } from './grpo-batch.ts';
import type { GrpoClipRatio, GrpoLossOptions } from './grpo-loss.ts';
import type { Policy } from './policy.ts';

/** Learning rate over optimiser steps: after warmupSteps of linear rise, constant or decaying to 0 at totalSteps. */
export type LrSchedule = { kind: 'constant'; warmupSteps?: number } | { kind: 'linear' | 'cosine'; warmupSteps?: number; totalSteps: number };

export interface OptimizerOptions {
  /** Peak learning rate (AdamW). */
  lr: number;
  /** Decoupled weight decay (AdamW); 0 for LoRA by default. */
  weightDecay: number;
  /** Clip the gradient's global L2 norm to this; 0 turns clipping off (DESIGN: 1.0). */
  maxGradNorm: number;
  /** Default { kind: 'constant' }. */
  schedule?: LrSchedule;
  /** AdamW's (beta1, beta2, eps); default (0.9, 0.999, 1e-8). */
  adamBetas?: readonly [number, number];
  adamEpsilon?: number;
}

export interface TrainStepOptions {
  /** beta, epsilonLow, epsilonHigh, lossType, maxCompletionLength. */
  grpo: GrpoLossOptions;
  /** How rewards become advantages (TRL's scale_rewards; 'group' by default there). */
  scaleRewards: RewardScaling;
  optimizer: OptimizerOptions;
  /** Logits are divided by it for logp, the KL reference and the entropy: the temperature the batch was sampled at. */
  temperature: number;
  /**
   * Sequences per forward/backward pass: bounds activation memory only. The loss and gradient are those
   * of the whole batch whatever the micro-batch size (grpoTokenWeights over the whole batch).
   */
  microBatchSize: number;
  signal?: AbortSignal;
}

export interface TrainStepResult {
  /** The GRPO loss of the batch at the weights before this step. */
  loss: number;
  /** Global L2 norm of the gradient before clipping (what TRL logs as grad_norm). */
  gradNorm: number;
  /** TRL's clip_ratio/* metrics. */
  clipRatio: GrpoClipRatio;
  /** Mean k3 KL to the reference over completion tokens; undefined when beta = 0 (no reference pass). */
  kl?: number;
  /**
   * Mean over completion tokens of the entropy (nats) of softmax(logits / temperature), at the weights
   * before this step, as TRL's entropy metric. The engine computes it beside logp from the full logits,
   * which only it holds (core sees per-token logprobs, not the vocabulary's distribution).
   */
  entropy: number;
  /** Completion tokens in the loss. */
  tokens: number;
  /** Learning rate this step used. */
  lr: number;
  /** Optimiser steps taken so far, this one included. */
  step: number;
  /** Wall time of the step, milliseconds. */
  timeMs: number;
}

/** What resumes training where it stopped: the adapter and the optimiser. */
export interface TrainingState {
  /** adapter_config.json text (PEFT). */
  adapterConfig: string;
  /** adapter_model.safetensors bytes (PEFT names, DESIGN's LoRA contract): also what vLLM, PEFT and TRL load. */
  adapter: Uint8Array;
  /** AdamW moments and step count, in the engine's own layout; opaque outside it. */
  optimizer: Uint8Array;
}

export interface TrainablePolicy extends Policy {
  /**
   * One optimiser step of GRPO on `batch`. When the promise resolves the policy's weights are the
   * updated ones: the next generateGroup and logprobs already sample and score with them.
   */
  trainStep(batch: GrpoBatch, options: TrainStepOptions): Promise<TrainStepResult>;
  exportState(): Promise<TrainingState>;
  /** Replaces the adapter and optimiser with a state exportState gave (same base model and LoRA shape). */
  importState(state: TrainingState): Promise<void>;
}
