/**
 * The ports a host fills for training-session.ts: the engine's constructors (core never imports the
 * engine, so the host passes them in: engine/index.ts's EnginePolicy, engine/train's GpuTrainer and
 * estimateTrainingMemory, engine/model's initLoraAdapter), the Conductor loaded onto the GPU (a model
 * directory on Dawn under Node; the tab's EngineHost on navigator.gpu), and what the run learns from
 * (the pool and the questions, or stored groups). Where checkpoints, episodes and metrics go are
 * runGrpo's own ports (GrpoDeps), which the host gives to runTraining.
 */
import type { WorkerModel } from '../../providers/index.ts';
import type { Task } from '../../task.ts';
import type { VocabTokenizer } from '../../workflow/constrain/index.ts';
import type { EpisodeGroup, EpisodeTokenizer } from '../episode-groups.ts';
import type { Policy, PolicyPrompt } from '../policy.ts';
import type { OptimizerOptions } from '../trainable-policy.ts';
import type { StatefulTrainer } from '../trainable.ts';

/** The engine's own types, which the recipe hands from one of its constructors to another without looking inside. */
export interface EngineTypes {
  model: { readonly config: { readonly vocabSize: number } };
  tokenizer: VocabTokenizer & { encode(text: string): number[] };
  adapter: unknown;
  /** What a memory estimate gives. */
  memory: unknown;
}

/** The largest micro-batch the run uses: the trainer checks its memory before allocating anything. */
export interface TrainingLimits {
  microBatchSequences: number;
  /** The longest sequence, prompt and completion. */
  maxSequenceLength: number;
  /** The longest completion, when a micro-batch is one group (its prompt's rows are counted once). */
  maxCompletionLength?: number;
}

export interface TrainerOptions<Adapter> {
  wrt: 'lora' | 'weights';
  lora?: Adapter;
  optimizer: OptimizerOptions;
  limits: TrainingLimits;
}

/** A new LoRA adapter (PEFT's config): B starts at zero. */
export interface NewAdapter {
  r: number;
  alpha: number;
  targetModules: string[];
  dropout: number;
  baseModel?: string;
}

/** What an estimate of training memory is asked about, beside the limits: how the weights sit and what trains. */
export interface MemoryShape extends TrainingLimits {
  weights: 'f32' | 'f16' | 'int4';
  train: { r: number; targetModules: readonly string[] } | 'full';
  /** The storage binding limit the head's logits are chunked to. */
  maxBindingBytes: number;
}

/** The engine's sampling policy: core's Policy, and a prompt's tokens as it renders them. */
export interface PromptPolicy extends Policy {
  promptIds(prompt: PolicyPrompt, continueFinal?: boolean): number[];
}

export interface EngineTrainer extends StatefulTrainer {
  destroy(): void;
}

/** The engine's constructors the recipe calls. */
export interface TrainingEngine<E extends EngineTypes> {
  EnginePolicy: new (model: E['model'], tokenizer: E['tokenizer']) => PromptPolicy;
  GpuTrainer: { create(model: E['model'], options: TrainerOptions<E['adapter']>): Promise<EngineTrainer> };
  initLoraAdapter(config: E['model']['config'], lora: NewAdapter, random: () => number): E['adapter'];
  estimateTrainingMemory(config: E['model']['config'], shape: MemoryShape): E['memory'];
}

/** The Conductor a host loaded onto the GPU. */
export interface LoadedConductor<E extends EngineTypes> {
  /** Its name in the episodes and as a new adapter's base model (a model directory, a Hub repo). */
  name: string;
  model: E['model'];
  tokenizer: E['tokenizer'];
  /** The adapter a LoRA run continues (baton train --lora); absent: a new one of the recipe's shape. */
  adapter?: E['adapter'];
  /** When the run ends: frees the model, or gives it back its own weights. */
  close(): void;
}

interface TrainingHost<E extends EngineTypes> {
  engine: TrainingEngine<E>;
  loadConductor(): Promise<LoadedConductor<E>>;
}

/** A run that samples: the workers the plans run on (keys applied) and the questions, loaded beside the Conductor. */
export interface SamplingHost<E extends EngineTypes> extends TrainingHost<E> {
  pool(): Promise<WorkerModel[]>;
  tasks(): Promise<{ train: Task[]; heldOut: Task[] }>;
}

/** Offline GRPO: stored groups, tokenised as the loaded Conductor tokenises. */
export interface OfflineHost<E extends EngineTypes> extends TrainingHost<E> {
  groups(tokenizer: EpisodeTokenizer): Promise<EpisodeGroup[]>;
}
