/**
 * The engine's side of core/rl's training recipe: the constructors training-session.ts calls, which a
 * host (baton train, the trainer web worker) passes in, since core never imports the engine.
 */
import type { TrainingEngine } from '../../core/rl/index.ts';
import { initLoraAdapter, type LoraAdapter } from '../model/index.ts';
import { EnginePolicy, type GpuModel } from '../runtime/index.ts';
import type { Tokenizer } from '../tokenizer/index.ts';
import { GpuTrainer } from './gpu-trainer.ts';
import { estimateTrainingMemory, type TrainingMemory } from './memory.ts';

/** The engine's types the recipe hands between these constructors. */
export interface EngineTrainingTypes {
  model: GpuModel;
  tokenizer: Tokenizer;
  adapter: LoraAdapter;
  memory: TrainingMemory;
}

export const trainingEngine: TrainingEngine<EngineTrainingTypes> = { EnginePolicy, GpuTrainer, initLoraAdapter, estimateTrainingMemory };
