// Offline GRPO's loop: steps take the groups in file order, wrapping round; a run stopped after a step
// and resumed from its checkpoint takes the very updates the unbroken run takes.
import { describe, expect, it } from 'vitest';
import {
  loraState,
  offlineStepGroups,
  runOfflineGrpo,
  type GrpoBatch,
  type GrpoCheckpoint,
  type LoraTrainingState,
  type OfflineGrpoConfig,
  type OfflineStepMetrics,
  type TrainingState,
} from '../../../../src/core/rl/index.ts';

/** A policy whose "weights" are the list of group prompts it was updated on. */
class RecordingPolicy {
  seen: number[][] = [];
  async trainStep(batch: GrpoBatch) {
    this.seen.push(batch.groups.map((g) => g.promptIds[0]));
    const clipRatio = { lowMean: 0, highMean: 0, regionMean: 0, lowMin: 0, highMax: 0 };
    return { loss: this.seen.length / 10, gradNorm: 1, clipRatio, entropy: 2, tokens: 4, lr: 0.1, step: this.seen.length, timeMs: 1 };
  }
  async exportState(): Promise<LoraTrainingState> {
    return { adapterConfig: JSON.stringify(this.seen), adapter: new Uint8Array(), optimizer: new Uint8Array() };
  }
  async importState(state: TrainingState) {
    this.seen = JSON.parse(loraState(state).adapterConfig);
  }
}

const GROUPS = [0, 1, 2].map((i) => ({
  promptIds: [i],
  completions: [
    { ids: [5], reward: 1 },
    { ids: [6], reward: i },
  ],
}));
const CONFIG: OfflineGrpoConfig = {
  steps: 3,
  groupsPerStep: 2,
  train: {
    grpo: { beta: 0, epsilonLow: 0.2, epsilonHigh: 0.2, lossType: 'bnpo', maxCompletionLength: 4 },
    scaleRewards: 'group',
    microBatchSize: 2,
    temperature: 1,
  },
  seed: 1,
  checkpointEvery: 1,
};
const timeless = (ms: OfflineStepMetrics[]) => ms.map(({ timeMs: _, ...m }) => m);

describe('runOfflineGrpo', () => {
  it('takes groupsPerStep groups a step in file order, wrapping round', async () => {
    expect([1, 2, 3].map((s) => offlineStepGroups(s, 2, 3))).toEqual([
      [0, 1],
      [2, 0],
      [1, 2],
    ]);
    expect(offlineStepGroups(1, 5, 3)).toEqual([0, 1, 2]);
    const policy = new RecordingPolicy();
    const run = await runOfflineGrpo(CONFIG, { policy, groups: GROUPS });
    expect(policy.seen).toEqual([
      [0, 1],
      [2, 0],
      [1, 2],
    ]);
    expect(run.metrics.map((m) => [m.step, m.groups, m.completions, m.rewardMean])).toEqual([
      [1, [0, 1], 4, 0.75],
      [2, [2, 0], 4, 1],
      [3, [1, 2], 4, 1.25],
    ]);
  });

  it('resumes a stopped run from its checkpoint as the unbroken run', async () => {
    const straight = new RecordingPolicy();
    const whole = await runOfflineGrpo(CONFIG, { policy: straight, groups: GROUPS });
    const saved: GrpoCheckpoint<OfflineStepMetrics>[] = [];
    const stop = new AbortController();
    const first = new RecordingPolicy();
    const stopped = await runOfflineGrpo(CONFIG, {
      policy: first,
      groups: GROUPS,
      signal: stop.signal,
      checkpoints: { save: async (c) => void saved.push(c) },
      onStep: () => stop.abort(),
    });
    expect(stopped).toMatchObject({ step: 1, stopped: true });
    const resumed = new RecordingPolicy();
    const rest = await runOfflineGrpo(CONFIG, { policy: resumed, groups: GROUPS, resume: saved.at(-1)! });
    expect(timeless(rest.metrics)).toEqual(timeless(whole.metrics));
    expect(resumed.seen).toEqual(straight.seen);
  });

  it('refuses an empty set of groups', async () => {
    await expect(runOfflineGrpo(CONFIG, { policy: new RecordingPolicy(), groups: [] })).rejects.toThrow(/No group to learn from/);
  });
});
