/**
 * The goal of "train on my choices": on a simulated pool where the user always picks a given worker per
 * kind of question, 30 picks teach the Conductor to plan as the user picks. The demo Conductor (what the
 * Train page trains), whose routing by kind the user does not share; 40 comparisons, the kinds taking turns, each of the pool's four one-step
 * plans run on the demo pool, the one calling the user's worker for the question's kind picked and stored
 * as the Ask page's comparison stores picks (test/support/user-picks.ts). trainOnChoices, the Train page's
 * own path, trains on the 30 earliest picks and checks the greedy plan on the 10 latest: it must follow the
 * user on at least 80% of them, where the demo Conductor did not.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortExpertsTaskSet } from '../../../../src/core/bench/index.ts';
import { DEMO_ENGINE_MODEL, trainOnChoices, CHOICE_TRAINING } from '../../../../src/core/conductor/index.ts';
import type { Episode } from '../../../../src/core/episodes/index.ts';
import { DEMO_POOL } from '../../../../src/core/providers/simulated/index.ts';
import { heldOutSample, type TrainedFormat } from '../../../../src/core/rl/index.ts';
import { GpuModel } from '../../../../src/engine/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadTokenizer, type Tokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { trainingEngine } from '../../../../src/engine/train/index.ts';
import { simulatedComparison } from '../../../support/user-picks.ts';
import { useTestDevice } from '../../../support/webgpu.ts';

/** The demo Conductor's format (its conductor.json): the compact prompt, one step, fixed subtasks: a plan is which worker answers. */
const FORMAT: TrainedFormat = { prompt: 'compact', constrain: true, maxSteps: 1, fixedSubtasks: true };
/** Not what the demo Conductor learnt from the pool's skills (Euler for sums, Sage for multiple choice): the user's own taste. */
const USER_PICKS: Record<string, string> = { number: 'sim-scout', mcq: 'sim-atlas' };
const PICKS = 40;
const DEMO = resolve(import.meta.dirname, '../../../../public/demo-conductor');

describe('train on my choices', () => {
  const device = useTestDevice();
  let model: GpuModel;
  let tokenizer: Tokenizer;

  beforeAll(async () => {
    const files = filesFromDir(DEMO);
    model = await GpuModel.load(device(), await openModel(files), { weights: 'f32' });
    tokenizer = await loadTokenizer(files);
  });
  afterAll(() => model?.destroy());

  it('after 30 picks, the greedy plan follows the user on at least 80% of their later picks', async () => {
    // The kinds taking turns, as a user's questions come.
    const questions = heldOutSample(shortExpertsTaskSet({ seed: 7 }).train, PICKS);
    const started = Date.UTC(2026, 11, 1);
    const stored: Episode[] = [];
    for (const [i, task] of questions.entries()) {
      const when = { group: `compare-${i}`, createdAt: new Date(started + i * 60_000).toISOString() };
      stored.push(...(await simulatedComparison(task, DEMO_POOL, FORMAT, USER_PICKS[task.kind], when)));
    }

    const result = await trainOnChoices(stored, CHOICE_TRAINING, {
      engine: trainingEngine,
      loadConductor: async () => ({ name: 'demo-conductor', model, tokenizer, close: () => {} }),
      choice: DEMO_ENGINE_MODEL,
      format: FORMAT,
    });
    const rate = (a: { agreed: number; total: number }) => a.agreed / a.total;
    expect(result.picks).toEqual({ train: 30, heldOut: 10 });
    expect(rate(result.before)).toBeLessThan(0.8);
    expect(rate(result.after)).toBeGreaterThanOrEqual(0.8);
  }, 900_000);
});
