/**
 * Learning-rate schedules, the multipliers of transformers' get_constant_schedule_with_warmup and
 * get_cosine_schedule_with_warmup (a LambdaLR over the peak rate). Plain CPU arithmetic: the value goes
 * into the AdamW kernel's uniforms. `step` counts optimiser steps already taken, so the first step
 * runs at factor(0), which is 0 under warm-up, exactly as a LambdaLR stepped after each optimizer.step().
 */
import { BatonError } from '../../core/errors/index.ts';
import type { LrSchedule } from '../../core/rl/index.ts';

export type { LrSchedule };

/** The schedule's multiplier of the peak learning rate at `step` (0-based). */
export function lrFactor(schedule: LrSchedule, step: number): number {
  const warmup = schedule.warmupSteps ?? 0;
  if (step < warmup) return step / Math.max(1, warmup);
  if (schedule.kind === 'constant') return 1;
  const progress = (step - warmup) / Math.max(1, schedule.totalSteps - warmup);
  return Math.max(0, 0.5 * (1 + Math.cos(Math.PI * (schedule.numCycles ?? 0.5) * 2 * progress)));
}

/** The learning rate of the step taken after `step` steps. */
export function learningRate(peakLr: number, schedule: LrSchedule, step: number): number {
  return peakLr * lrFactor(schedule, step);
}

/** Throws a 'run/config' BatonError naming the first field a person would have to fix. */
export function validateSchedule(schedule: LrSchedule): void {
  const bad = (field: string, value: unknown, want: string) =>
    new BatonError({ code: 'run/config', message: `Learning-rate schedule: ${field} is ${String(value)}; it must be ${want}.`, data: { field, value } });
  const warmup = schedule.warmupSteps ?? 0;
  if (!Number.isInteger(warmup) || warmup < 0) throw bad('warmupSteps', warmup, 'a whole number >= 0');
  if (schedule.kind === 'cosine') {
    if (!Number.isInteger(schedule.totalSteps) || schedule.totalSteps < 1) throw bad('totalSteps', schedule.totalSteps, 'a whole number >= 1');
    const cycles = schedule.numCycles ?? 0.5;
    if (!(cycles > 0) || !Number.isFinite(cycles)) throw bad('numCycles', cycles, 'a positive number');
  } else if (schedule.kind !== 'constant') {
    throw bad('kind', (schedule as { kind: unknown }).kind, "'constant' or 'cosine'");
  }
}
