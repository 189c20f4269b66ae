/** A Train page run's settings, checked in the trainer worker before a run starts. */
import { BatonError } from '../../core/errors/index.ts';
import { limitPerProvider } from '../../core/orchestra/index.ts';
import { MAX_TRAINING_RECURSION, TRAINING_LIMITS, type TrainingConfig } from './api.ts';

/** Throws 'run/config' naming the first setting out of range, in words the page shows as they are. */
export function checkTrainingConfig(config: TrainingConfig): TrainingConfig {
  for (const [key, [min, max]] of Object.entries(TRAINING_LIMITS) as [keyof typeof TRAINING_LIMITS, readonly [number, number]][]) {
    const value = config[key];
    const whole = key !== 'lr';
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value))) {
      throw new BatonError({
        code: 'run/config',
        message: `"${key}" must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${value}.`,
        data: { key, value },
      });
    }
  }
  const depth = config.recursionDepth;
  if (depth !== undefined && !(Number.isInteger(depth) && depth >= 0 && depth <= MAX_TRAINING_RECURSION)) {
    throw new BatonError({
      code: 'run/config',
      message: `"recursionDepth" must be a whole number from 0 to ${MAX_TRAINING_RECURSION}, got ${depth}.`,
      data: { key: 'recursionDepth', value: depth },
    });
  }
  const lambda = config.costWeight;
  if (lambda !== undefined && !(Number.isFinite(lambda) && lambda >= 0)) {
    throw new BatonError({
      code: 'run/config',
      message: `"costWeight" must be a number of at least 0, got ${lambda}.`,
      data: { key: 'costWeight', value: lambda },
    });
  }
  if (config.everyPlan && !(config.fixedSubtasks && config.maxSteps === 1 && !config.recursionDepth)) {
    throw new BatonError({
      code: 'run/config',
      message: 'Every plan needs fixed subtask texts, 1 step per workflow and no recursion: a plan is then one worker, and a group every worker.',
      data: { key: 'everyPlan', value: true },
    });
  }
  // Checks each provider name and cap the way the run will apply them.
  limitPerProvider([], config.concurrency);
  if (config.pool.length < 1)
    throw new BatonError({ code: 'run/config', message: 'The pool is empty: add workers on the Workers page, or train on the experts pool.' });
  return config;
}
