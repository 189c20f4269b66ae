import { describe, expect, it } from 'vitest';
import { typicalRunUsd, worstCaseRunUsd, WORKER_PREAMBLE } from '../../../../src/core/orchestra/index.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';
import { makeEpisodes } from '../../../support/episode-factory.ts';

const cheap: WorkerSpec = { id: 'cheap', provider: 'openai', model: 'm1', maxTokens: 100, price: { input: 1, output: 2 } };
const dear: WorkerSpec = { id: 'dear', provider: 'anthropic', model: 'm2', maxTokens: 200, price: { input: 3, output: 15 } };

describe('worstCaseRunUsd', () => {
  it('puts every step of every round on the dearest worker, each seeing all earlier outputs in full', () => {
    const question = 400;
    // Step k's input: the preamble, the question, 1,000 characters of room, and k earlier outputs of 200 tokens (800 characters) with their room.
    const input = (k: number) => Math.ceil((WORKER_PREAMBLE.length + question + 1_000 + k * 1_800) / 4);
    const expected = [0, 1, 2, 3].reduce((sum, k) => sum + (input(k) * 3 + 200 * 15) / 1e6, 0);
    expect(worstCaseRunUsd([cheap, dear], { maxSteps: 2, recursion: 1, questionChars: question })).toBeCloseTo(expected, 12);
    expect(worstCaseRunUsd([cheap], { maxSteps: 2, recursion: 1, questionChars: question })).toBeLessThan(expected);
  });

  it('is unknown when a worker has no price', () => {
    expect(worstCaseRunUsd([cheap, { ...dear, price: undefined }], { maxSteps: 1, recursion: 0, questionChars: 10 })).toBeNull();
  });
});

describe('typicalRunUsd', () => {
  it('is the median dollars of the finished runs over the same workers, in the same order', () => {
    const [a, b, c, d, other] = makeEpisodes(5, 3);
    const pool: WorkerSpec[] = [cheap, dear];
    const run = (ep: typeof a, costUsd: number | null, status: typeof a.status = 'ok') => ({ ...ep, pool, status, totals: { ...ep.totals, costUsd } });
    const episodes = [run(a, 0.1), run(b, 0.4), run(c, 0.2), run(d, 9, 'infra-error'), { ...run(other, 5), pool: [dear, cheap] }, run(other, null)];
    expect(typicalRunUsd(episodes, pool)).toEqual({ usd: 0.2, runs: 3 });
    expect(typicalRunUsd(episodes.slice(0, 2), pool)).toEqual({ usd: 0.25, runs: 2 });
    expect(typicalRunUsd([], pool)).toEqual({ usd: null, runs: 0 });
  });
});
