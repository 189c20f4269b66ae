import { describe, expect, it } from 'vitest';
import { expertsTaskSet, hindsightBaselines, loadGsm8k, loadMmluCsv, routingWorkflows, shortExpertsTaskSet } from '../../../../../src/core/bench/index.ts';
import { createSimulatedWorker, EXPERTS_POOL } from '../../../../../src/core/providers/simulated/index.ts';
import { listData, readData } from '../../../../support/data.ts';

const pool = EXPERTS_POOL.map(createSimulatedWorker);
const mcq = listData('mmlu/test').flatMap((f) => loadMmluCsv(readData(`mmlu/test/${f}`), f.replace(/_test\.csv$/, '')));
const arithmetic = loadGsm8k(readData('gsm8k/test.jsonl'));

describe('EXPERTS_POOL', () => {
  it.each([
    ['MMLU and GSM8K', () => expertsTaskSet(mcq, arithmetic, { perKind: 150, seed: 0 }).train, 'gsm8k'],
    ['the short generated questions', () => shortExpertsTaskSet({ perKind: 150, seed: 0 }).train, 'number'],
  ] as const)('rewards routing by kind on %s: the best per-kind workflow beats the best fixed one by over 20 points', async (_, tasks, arithmeticKind) => {
    const b = await hindsightBaselines(routingWorkflows(4), tasks(), pool);
    const [worker0, , , worker3] = b.workflows;
    expect(worker0.byKind.mcq).toBeGreaterThan(0.85);
    expect(worker0.byKind[arithmeticKind]).toBeLessThan(0.3);
    expect(worker3.byKind[arithmeticKind]).toBeGreaterThan(0.85);
    expect(worker3.byKind.mcq).toBeLessThan(0.3);
    expect(b.bestPerKind.accuracy).toBeGreaterThan(0.88);
    expect(b.bestPerKind.accuracy - b.bestFixed.accuracy).toBeGreaterThan(0.2);
    expect(b.bestFixed.accuracy - b.randomRouting).toBeGreaterThan(0.05);
  });
});
