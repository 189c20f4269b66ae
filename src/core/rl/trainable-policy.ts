/**
 * A Policy that GRPO can train in place: one optimiser step per trainStep on a GrpoBatch, the loss
 * being core/rl's grpoLoss (so every runtime trains on the same definition). Types only, besides
 * telling the two training states apart: Baton's engine implements it. mu > 1 updates on one batch
 * (TRL's num_iterations) are mu calls with the same batch carrying old_logprobs. Defaults below are TRL's GRPOConfig's, where Baton keeps them.
 */
import { BatonError } from '../errors/index.ts';
import type { RewardScaling } from './advantages.ts';
import type { GrpoBatch } from './grpo-batch.ts';
import type { GrpoClipRatio, GrpoLossOptions } from './grpo-loss.ts';
import type { Policy } from './policy.ts';

/** The learning rate over optimiser steps: transformers' constant and cosine schedules, with linear warm-up from 0. */
export type LrSchedule =
  /** Linear warm-up from 0 over warmupSteps, then the peak rate. */
  | { readonly kind: 'constant'; readonly warmupSteps?: number }
  /**
   * Linear warm-up, then cosine decay reaching 0 at totalSteps (numCycles 0.5 = half a cosine wave).
   * As in transformers, progress is not clamped: past totalSteps the factor follows the cosine back up.
   */
  | { readonly kind: 'cosine'; readonly warmupSteps?: number; readonly totalSteps: number; readonly numCycles?: number };

/** AdamW with global gradient-norm clipping (docs/method.md: (0.9, 0.999, 1e-8), clipping at 1.0). */
export interface OptimizerOptions {
  /** Peak learning rate; the schedule multiplies it. */
  readonly lr: number;
  readonly beta1?: number; // 0.9
  readonly beta2?: number; // 0.999
  readonly eps?: number; // 1e-8
  /** Decoupled weight decay (torch.optim.AdamW's weight_decay); default 0, as transformers' TrainingArguments. */
  readonly weightDecay?: number;
  /** Global gradient-norm limit (default 1); 0 or Infinity turns clipping off (the norm is still measured). */
  readonly maxGradNorm?: number;
  /** Default { kind: 'constant' }. */
  readonly schedule?: LrSchedule;
}

export interface TrainStepOptions {
  /** beta, epsilonLow, epsilonHigh, lossType, maxCompletionLength. */
  grpo: GrpoLossOptions;
  /** How rewards become advantages (TRL's scale_rewards; 'group' by default there). */
  scaleRewards: RewardScaling;
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
  /** Set when the gradient held NaN or infinity: the step was skipped and no weight or optimiser state changed. */
  skipped?: string;
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

/** What resumes LoRA training where it stopped: the adapter and the optimiser (the tab's IndexedDB checkpoints hold this). */
export interface LoraTrainingState {
  /** adapter_config.json text (PEFT). */
  adapterConfig: string;
  /** adapter_model.safetensors bytes (PEFT names: base_model.model.<module>.lora_A/B.weight): also what vLLM, PEFT and TRL load. */
  adapter: Uint8Array;
  /** AdamW moments and step count, in the engine's own layout; opaque outside it. */
  optimizer: Uint8Array;
}

/** What resumes full fine-tuning where it stopped: every weight and the optimiser. */
export interface WeightsTrainingState {
  /** model.safetensors bytes: every weight as F32 under the model's Hugging Face tensor names. */
  weights: Uint8Array;
  /** AdamW moments and step count, in the engine's own layout; opaque outside it. */
  optimizer: Uint8Array;
}

export type TrainingState = LoraTrainingState | WeightsTrainingState;

export const isWeightsState = (state: TrainingState): state is WeightsTrainingState => 'weights' in state;

/** The adapter of a LoRA run's state; a full fine-tuning state has none to give. */
export function loraState(state: TrainingState): LoraTrainingState {
  if (isWeightsState(state)) {
    throw new BatonError({
      code: 'run/config',
      message: 'This training state holds every weight of a full fine-tuning run, not a LoRA adapter; use its model directory instead.',
    });
  }
  return state;
}

/** A Policy with GRPO's update; its optimiser (OptimizerOptions) is fixed when it is made, as its schedule spans the run. */
export interface TrainablePolicy extends Policy {
  /**
   * One optimiser step of GRPO on `batch`. When the promise resolves the policy's weights are the
   * updated ones: the next generateGroup and logprobs already sample and score with them.
   */
  trainStep(batch: GrpoBatch, options: TrainStepOptions): Promise<TrainStepResult>;
  exportState(): Promise<TrainingState>;
  /** Replaces the trained weights (adapter or all) and optimiser with a state exportState gave (same base model and shapes). */
  importState(state: TrainingState): Promise<void>;
}
