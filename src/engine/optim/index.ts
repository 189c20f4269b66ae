/** The optimiser: AdamW on the GPU with global gradient-norm clipping and learning-rate schedules, beside float64 references. */
export { adamwRef, type AdamWHyper, type AdamWState } from './adamw.ref.ts';
export { clipCoefficient, globalNorm, sumSquaresRef } from './clip.ref.ts';
export { learningRate, lrFactor, validateSchedule, type LrSchedule } from './schedule.ts';
export { adamwStep, adamwUniforms } from './adamw.ts';
export { MAX_PARTIALS, PARTIAL_FLOATS, sumSquaresFinish, sumSquaresGroups, sumSquaresPartial } from './clip.ts';
export { resolveSettings, type AdamWOptions, type AdamWSettings } from './adamw-settings.ts';
export { readOptimizerState, writeOptimizerState, type OptimizerState, type ParameterShape } from './optimizer-state.ts';
export { AdamW, type TrainedParameter } from './optimizer.ts';
