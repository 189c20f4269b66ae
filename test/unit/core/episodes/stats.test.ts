import { describe, expect, it } from 'vitest';
import { StatsAccumulator, type Episode, type StepRecord } from '../../../../src/core/episodes/index.ts';
import { makeEpisodes } from '../../../support/episode-factory.ts';

const [template] = makeEpisodes(1, 81);

function step(workerId: string, input: number, output: number, costUsd: number | null, latencyMs: number): StepRecord {
  return { ...template.steps[0], workerId, usage: { input, output }, costUsd, latencyMs };
}

function episode(steps: StepRecord[], costUsd: number | null, reward: Episode['reward'], usage = { input: 10, output: 5 }): Episode {
  const ep: Episode = { ...template, steps, rounds: [], totals: { usage, costUsd, latencyMs: 0 } };
  delete ep.reward;
  return reward ? { ...ep, reward } : ep;
}

describe('StatsAccumulator', () => {
  it('is all zeros and nulls with nothing added', () => {
    expect(new StatsAccumulator().result()).toEqual({
      count: 0,
      graded: 0,
      correct: 0,
      accuracy: null,
      costUsd: 0,
      knownCostUsd: 0,
      unknownCount: 0,
      unknownCost: { failedCalls: 0, noPrice: 0 },
      spentUsd: 0,
      simulatedCostUsd: 0,
      tokens: { input: 0, output: 0, cached: 0, reasoning: 0 },
      byWorker: {},
    });
  });

  it('counts grading without infrastructure failures and keeps unknown cost unknown', () => {
    const acc = new StatsAccumulator();
    acc.add(episode([step('a', 100, 10, 0.5, 200), step('b', 50, 5, null, 1000)], null, { value: 1, correct: true, format: true }));
    acc.add(
      episode([step('a', 300, 30, 0.25, 400)], 0.25, { value: 0, correct: false, format: true }, {
        input: 300,
        output: 30,
        cached: 100,
        reasoning: 7,
      } as never),
    );
    acc.add(episode([step('a', 1, 1, 0.125, 600)], 0.125, { value: 0, correct: false, format: true, infraError: true }));
    acc.add(episode([], 0, undefined));
    const s = acc.result();
    expect(s.count).toBe(4);
    expect(s.graded).toBe(2);
    expect(s.correct).toBe(1);
    expect(s.accuracy).toBe(0.5);
    expect(s.costUsd).toBeNull();
    expect(s.knownCostUsd).toBe(0.375);
    expect(s.unknownCount).toBe(1);
    expect(s.tokens).toEqual({ input: 330, output: 45, cached: 100, reasoning: 7 });
    expect(s.byWorker).toEqual({
      a: { calls: 3, input: 401, output: 41, costUsd: 0.875, knownCostUsd: 0.875, unknownCostCalls: 0, latencyMs: 1200 },
      b: { calls: 1, input: 50, output: 5, costUsd: null, knownCostUsd: 0, unknownCostCalls: 1, latencyMs: 1000 },
    });
  });

  it('tells failed calls from workers without a price, and simulated dollars from spent ones', () => {
    const pool: Episode['pool'] = [
      { id: 'sim', provider: 'simulated', model: 'sim', price: { input: 1, output: 1 } },
      { id: 'gpt', provider: 'openai', model: 'gpt', price: { input: 1, output: 1 } },
      { id: 'local', provider: 'openai-compatible', model: 'qwen', label: 'Ollama' },
    ];
    const on = (worker: number, cost: number | null, extra: Partial<StepRecord> = {}) => ({ ...step(pool[worker].id, 1, 1, cost, 1), worker, ...extra });
    const refused = { error: { code: 'provider/auth', message: 'Refused.' } };
    const heldBack = { attempts: 0, error: { code: 'run/aborted', message: 'Not started: another step failed.' } };
    const acc = new StatsAccumulator();
    // Every worker priced, one call failed (its cost unknown), the next step never started.
    acc.add({ ...episode([on(1, 0.25), on(1, null, refused), on(0, 0, heldBack)], null, undefined), pool });
    // A worker without a price answered.
    acc.add({ ...episode([on(2, null)], null, undefined), pool });
    // All simulated.
    acc.add({ ...episode([on(0, 0.5), on(0, 0.125)], 0.625, undefined), pool });
    const s = acc.result();
    expect(s.unknownCount).toBe(2);
    expect(s.unknownCost).toEqual({ failedCalls: 1, noPrice: 1 });
    expect({ spent: s.spentUsd, simulated: s.simulatedCostUsd }).toEqual({ spent: 0.25, simulated: 0.625 });
    // The step never started made no call.
    expect(s.byWorker.sim.calls).toBe(2);
    expect(s.byWorker.gpt).toMatchObject({ calls: 2, unknownCostCalls: 1 });
  });

  it('counts the steps of recursion rounds too', () => {
    const acc = new StatsAccumulator();
    const ep = episode([step('a', 1, 1, 0.5, 1)], 1, undefined);
    acc.add({ ...ep, rounds: [{ ...template.rounds[0], prompt: [], completion: { text: '' }, steps: [step('a', 2, 2, 0.5, 1)], final: '' }] });
    expect(acc.result().byWorker.a).toMatchObject({ calls: 2, input: 3, costUsd: 1 });
  });
});
