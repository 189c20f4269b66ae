/**
 * The cost-aware reward moves plans to cheaper models: on a slice of the routerbench task set with its
 * recorded pool, two runs of `baton train` from the same tiny Conductor and seed, one with lambda 0 and
 * one with lambda large enough that the dearest model's dollars outweigh a right answer twice over. Over
 * the last steps the large lambda's sampled plans must cost less than the lambda-0 run's, and less than
 * they did at its own first step. The direction only: the accuracy figures come from bench/cost-frontier.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routingOutcomes, singleWorkerPoints } from '../../../../../src/core/bench/index.ts';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import { FIXED_SUBTASKS } from '../../../../../src/core/workflow/constrain/index.ts';
import { buildPool, builtInPool, readBuiltInTaskSet, readReplayFlags } from '../../../../../src/node/inputs/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../../support/tiny-model.ts';

const POOL = 'routerbench';
const STEPS = 8;

describe('the cost-aware reward', () => {
  let dir: string;
  let lambda: number;
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    return { code: await main(argv, io), io };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-cost-weight-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code, made.io.err).toBe(0);
    const slice = (await readBuiltInTaskSet(POOL, 0)).train.slice(0, 16);
    await writeFile(join(dir, 'tasks.jsonl'), slice.map((t) => `${JSON.stringify(t)}\n`).join(''));
    const specs = await builtInPool(POOL);
    const pool = await buildPool(specs, {}, await readReplayFlags(recordingIo(dir), [], specs), 0);
    const singles = singleWorkerPoints(await routingOutcomes(slice, pool, FIXED_SUBTASKS[0], (t) => t.kind), 0);
    lambda = 2 / Math.max(...singles.map((p) => p.dollarsPerQuestion));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const train = async (costWeight: number, out: string) => {
    const trained = await run(
      'train',
      ...['--model', 'model', '--weights', 'f32', '--pool', POOL, '--tasks', 'tasks.jsonl', '--constrain', '--prompt', 'compact'],
      ...['--question-chars', '80', '--subtasks', 'fixed', '--max-steps', '1', '--max-completion-tokens', '40'],
      ...['--steps', String(STEPS), '--questions', '4', '--group', '4', '--lr', '0.03', '--r', '4', '--targets', 'all'],
      ...['--cost-weight', String(costWeight), '--scale-rewards', 'none', '--seed', '3', '--out', out],
    );
    expect(trained.code, trained.io.err).toBe(0);
    const episodes = (await readFile(join(dir, out, 'episodes.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Episode);
    /** Mean dollars of the sampled plans of the steps given. */
    return (steps: number[]) => {
      const of = episodes.filter((e) => steps.some((s) => e.tags.includes(`step:${s}`)) && e.tags.includes('train'));
      expect(of.length).toBeGreaterThan(0);
      return of.reduce((sum, e) => sum + (e.totals.costUsd ?? 0), 0) / of.length;
    };
  };

  it('sends plans to cheaper models under a larger lambda', async () => {
    const free = await train(0, 'free');
    const dear = await train(lambda, 'costly');
    const last = [STEPS - 2, STEPS - 1, STEPS];
    expect(dear([1])).toBeCloseTo(free([1]), 12);
    expect(dear(last)).toBeLessThan(free(last));
    expect(dear(last)).toBeLessThan(dear([1]));
  }, 1_200_000);
});
