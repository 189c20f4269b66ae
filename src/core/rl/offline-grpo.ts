/**
 * Offline GRPO: updates from stored groups (episode-groups.ts) instead of fresh samples. Step s takes
 * the next groupsPerStep groups in file order (wrapping round for more steps than one pass), computes
 * their advantages from the stored rewards and takes one optimiser step (mu, with the same batch). The
 * stored logprobs came from whatever policy sampled them, so they are not used as old logprobs: the
 * ratio is 1 at the current weights, as for an on-policy first iteration. Checkpoints, stop and resume
 * work as in runGrpo: which groups a step takes depends on the step alone, so a resumed run is the same run.
 * Test: test/unit/core/rl/offline-grpo.test.ts; through baton train --from-episodes in test/engine/node/commands/train/from-episodes.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { sampleStd } from './advantages.ts';
import type { GrpoBatchGroup } from './grpo-batch.ts';
import { RunCheckpoints, type CheckpointStore, type GrpoCheckpoint } from './run-checkpoints.ts';
import type { TrainablePolicy, TrainStepOptions } from './trainable-policy.ts';

export interface OfflineGrpoConfig {
  /** Optimiser steps of the whole run (a resumed run counts the ones already taken). */
  steps: number;
  groupsPerStep: number;
  /** Updates on each step's batch (mu; default 1). */
  iterations?: number;
  /** The update: GRPO loss options, reward scaling, micro-batch size, and the temperature the groups were sampled at. */
  train: Omit<TrainStepOptions, 'signal'>;
  seed: number;
  checkpointEvery?: number;
}

export interface OfflineStepMetrics {
  step: number;
  /** Indices of the step's groups in the file's order. */
  groups: number[];
  completions: number;
  rewardMean: number;
  rewardStd: number;
  /** The last update's figures (mu > 1: the final iteration's). */
  loss: number;
  gradNorm: number;
  entropy: number;
  clipRatio: number;
  lr: number;
  tokens: number;
  skipped?: string;
  timeMs: number;
}

export interface OfflineGrpoDeps {
  policy: Pick<TrainablePolicy, 'trainStep' | 'exportState' | 'importState'>;
  groups: readonly GrpoBatchGroup[];
  resume?: GrpoCheckpoint<OfflineStepMetrics>;
  checkpoints?: CheckpointStore<OfflineStepMetrics>;
  onStep?(metrics: OfflineStepMetrics): void;
  signal?: AbortSignal;
}

/** The groups step `step` (1-based) trains on: the next groupsPerStep in order, wrapping round. */
export const offlineStepGroups = (step: number, perStep: number, count: number): number[] =>
  Array.from({ length: Math.min(perStep, count) }, (_, j) => ((step - 1) * perStep + j) % count);

export async function runOfflineGrpo(
  cfg: OfflineGrpoConfig,
  deps: OfflineGrpoDeps,
): Promise<{ metrics: OfflineStepMetrics[]; step: number; stopped: boolean }> {
  const { policy, groups, signal } = deps;
  if (groups.length === 0) throw new BatonError({ code: 'run/config', message: 'No group to learn from: every group had one member or equal rewards.' });
  if (!(Number.isInteger(cfg.groupsPerStep) && cfg.groupsPerStep >= 1))
    throw new BatonError({ code: 'run/config', message: `groups per step must be a whole number >= 1, got ${cfg.groupsPerStep}.` });
  const run = await RunCheckpoints.open(cfg.seed, policy, deps.resume, deps.checkpoints);
  const { stopped } = await run.runUntilStopped(signal, async () => {
    while (run.step < cfg.steps) {
      signal?.throwIfAborted();
      const started = performance.now();
      const picked = offlineStepGroups(run.step + 1, cfg.groupsPerStep, groups.length);
      const batch = { groups: picked.map((i) => groups[i]) };
      let update;
      for (let k = 0; k < (cfg.iterations ?? 1); k++) update = await policy.trainStep(batch, cfg.train);
      run.step++;
      const rewards = batch.groups.flatMap((g) => g.completions.map((c) => c.reward));
      const m: OfflineStepMetrics = {
        step: run.step,
        groups: picked,
        completions: rewards.length,
        rewardMean: rewards.reduce((a, b) => a + b, 0) / rewards.length,
        rewardStd: sampleStd(rewards),
        loss: update!.loss,
        gradNorm: update!.gradNorm,
        entropy: update!.entropy,
        clipRatio: update!.clipRatio.regionMean,
        lr: update!.lr,
        tokens: update!.tokens,
        ...(update!.skipped ? { skipped: update!.skipped } : {}),
        timeMs: performance.now() - started,
      };
      deps.onStep?.(m);
      await run.finish(m, cfg.checkpointEvery);
    }
  });
  return { metrics: run.metrics, step: run.step, stopped };
}
