/** Training on the GPU: the whole model's backward, sequenced per layer with activation checkpointing, beside its float64 reference trainer. */
export { GpuTrainer, type GpuTrainerOptions } from './gpu-trainer.ts';
export { refLogprobGradients } from './model-backward.ref.ts';
export { RefTrainer } from './trainer.ref.ts';
export { checkTrainingMemory, estimateTrainingMemory, type TrainingMemory, type TrainingShape } from './memory.ts';
export { GradientCapture } from './gradient-capture.ts';
export { trainingEngine, type EngineTrainingTypes } from './training-engine.ts';
