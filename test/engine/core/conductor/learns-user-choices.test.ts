/**
 * The goal of "train on my choices": on a simulated pool where the user always picks a given worker per
 * kind of question, 30 picks teach the Conductor to plan as the user picks. A tiny untrained Conductor
 * (near uniform over the workers) writes G = 4 workflows per question, as the Ask page's comparison does;
 * they run on the demo pool; a simulated user picks the one that calls their worker for the question's
 * kind (no pick when none does), stored as the comparison stores picks (test/support/user-picks.ts).
 * trainOnChoices, the Train page's own path, trains on the 30 earliest picks and checks the Conductor's
 * greedy plan on the 10 latest: it must follow the user on at least 80% of them, where it did not before.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { main } from '../../../../src/node/main.ts';
import { recordingIo } from '../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../support/tiny-model.ts';
import { simulatedComparison } from '../../../support/user-picks.ts';
import { useTestDevice } from '../../../support/webgpu.ts';

/** The demo Conductor's format: the compact prompt, one step, fixed subtasks: a plan is which worker answers. */
const FORMAT: TrainedFormat = { prompt: 'compact', constrain: true, maxSteps: 1, fixedSubtasks: true };
/** Not what the demo pool's skills suggest (Euler for sums, Sage for multiple choice): the user's own taste. */
const USER_PICKS: Record<string, string> = { number: 'sim-scout', mcq: 'sim-atlas' };
const PICKS = 40;

describe('train on my choices', () => {
  const device = useTestDevice();
  let dir: string;
  let model: GpuModel;
  let tokenizer: Tokenizer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-choices-'));
    expect(await main(TINY_CONDUCTOR_INIT, recordingIo(dir))).toBe(0);
    const files = filesFromDir(join(dir, 'model'));
    model = await GpuModel.load(device(), await openModel(files), { weights: 'f32' });
    tokenizer = await loadTokenizer(files);
  });
  afterAll(async () => {
    model?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('after 30 picks, the greedy plan follows the user on at least 80% of their later picks', async () => {
    // The kinds taking turns, as a user's questions come.
    const questions = heldOutSample(shortExpertsTaskSet({ seed: 7 }).train, PICKS);
    const started = Date.UTC(2026, 11, 1);
    const stored: Episode[] = [];
    for (const [i, task] of questions.entries()) {
      const when = { group: `compare-${i}`, createdAt: new Date(started + i * 60_000).toISOString() };
      stored.push(...(await simulatedComparison(task, DEMO_POOL, FORMAT, USER_PICKS[task.kind], when)));
    }

    const t0 = performance.now();
    const result = await trainOnChoices(stored, CHOICE_TRAINING, {
      engine: trainingEngine,
      loadConductor: async () => ({ name: 'tiny', model, tokenizer, close: () => {} }),
      choice: DEMO_ENGINE_MODEL,
      format: FORMAT,
      onPhase: (p) => console.log(p, (performance.now() - t0) / 1000),
      onStep: (m, n) => console.log('step', m.step, n, m.timeMs, m.loss),
    });
    const rate = (a: { agreed: number; total: number }) => a.agreed / a.total;
    console.log(
      JSON.stringify({ picks: result.picks, before: result.before, after: result.after, steps: result.metrics.length, s: (performance.now() - t0) / 1000 }),
    );
    expect(result.picks).toEqual({ train: 30, heldOut: 10 });
    expect(rate(result.before)).toBeLessThan(0.8);
    expect(rate(result.after)).toBeGreaterThanOrEqual(0.8);
  }, 600_000);
});
