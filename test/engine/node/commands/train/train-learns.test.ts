/**
 * `baton train` learns: a Conductor made by `baton init-model` (16 wide, 2 layers), trained with GRPO on
 * the experts pool over sums only, must come to send them to the worker that is right on arithmetic
 * (worker 3, the reckoner) far more often than it did untrained. With the update switched off (--lr 0)
 * its share stays where it started, about a quarter, and this test fails. A few minutes on SwiftShader.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortExpertsTaskSet } from '../../../../../src/core/bench/index.ts';
import type { GrpoStepMetrics } from '../../../../../src/core/rl/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../../support/tiny-model.ts';

const RECKONER = 3;
const STEPS = 12;

describe('baton train learns', () => {
  let dir: string;
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    return { code: await main(argv, io), io };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-train-learns-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code, made.io.err).toBe(0);
    const sums = shortExpertsTaskSet({ perKind: 40, seed: 2 }).train.filter((t) => t.kind === 'number');
    await writeFile(join(dir, 'tasks.jsonl'), sums.map((t) => `${JSON.stringify(t)}\n`).join(''));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('sends arithmetic to the arithmetic worker far more often after training than before', async () => {
    const trained = await run(
      'train',
      '--model',
      'model',
      '--weights',
      'f32',
      '--pool',
      'experts',
      '--tasks',
      'tasks.jsonl',
      '--constrain',
      '--prompt',
      'compact',
      '--max-steps',
      '1',
      '--max-completion-tokens',
      '40',
      '--max-subtask-chars',
      '2',
      '--steps',
      String(STEPS),
      '--questions',
      '4',
      '--group',
      '4',
      '--lr',
      '0.03',
      '--r',
      '4',
      '--targets',
      'all',
      '--seed',
      '3',
      '--out',
      'run',
    );
    expect(trained.code, trained.io.err).toBe(0);
    const metrics = (await readFile(join(dir, 'run', 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as GrpoStepMetrics);
    expect(metrics).toHaveLength(STEPS);
    const share = (steps: GrpoStepMetrics[]) => {
      const choices = steps.map((m) => m.workerChoices).reduce((a, b) => a.map((n, i) => n + b[i]));
      return choices[RECKONER] / choices.reduce((a, b) => a + b, 0);
    };
    const before = share(metrics.slice(0, 3));
    const after = share(metrics.slice(-3));
    expect(before).toBeLessThan(0.35);
    expect(after).toBeGreaterThan(0.5);
    expect(after - before).toBeGreaterThan(0.25);
  }, 900_000);
});
