/**
 * The optimiser's hyper-parameters with their defaults (docs/method.md: AdamW (0.9, 0.999, 1e-8), clipping
 * at 1.0; weight decay 0 as in transformers' TrainingArguments), checked once so a bad value is a
 * 'run/config' error that names it, not NaN parameters ten steps later.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { OptimizerOptions } from '../../core/rl/index.ts';
import { validateSchedule } from './schedule.ts';

/** core/rl's OptimizerOptions: one definition for every trainer. */
export type AdamWOptions = OptimizerOptions;

/** Every field resolved; maxGradNorm is Infinity when clipping is off. */
export type AdamWSettings = { -readonly [K in keyof OptimizerOptions]-?: NonNullable<OptimizerOptions[K]> };

export function resolveSettings(options: AdamWOptions): AdamWSettings {
  const s: AdamWSettings = {
    lr: options.lr,
    beta1: options.beta1 ?? 0.9,
    beta2: options.beta2 ?? 0.999,
    eps: options.eps ?? 1e-8,
    weightDecay: options.weightDecay ?? 0,
    // 0 turns clipping off, as transformers' max_grad_norm = 0 does.
    maxGradNorm: options.maxGradNorm === 0 ? Infinity : (options.maxGradNorm ?? 1),
    schedule: options.schedule ?? { kind: 'constant' },
  };
  const check = (field: keyof AdamWSettings, ok: boolean, want: string) => {
    if (!ok)
      throw new BatonError({ code: 'run/config', message: `AdamW: ${field} is ${String(s[field])}; it must be ${want}.`, data: { field, value: s[field] } });
  };
  check('lr', Number.isFinite(s.lr) && s.lr >= 0, 'a finite number >= 0');
  check('beta1', s.beta1 >= 0 && s.beta1 < 1, 'in [0, 1)');
  check('beta2', s.beta2 >= 0 && s.beta2 < 1, 'in [0, 1)');
  check('eps', Number.isFinite(s.eps) && s.eps > 0, 'a finite number > 0');
  check('weightDecay', Number.isFinite(s.weightDecay) && s.weightDecay >= 0, 'a finite number >= 0');
  check('maxGradNorm', s.maxGradNorm > 0, 'a number > 0, or 0 for no clipping');
  validateSchedule(s.schedule);
  return s;
}
