import { describe, expect, it } from 'vitest';
import { expertsTaskSet, loadGsm8k, loadMmluCsv, shortExpertsTaskSet } from '../../../../../src/core/bench/index.ts';
import type { Task } from '../../../../../src/core/task.ts';
import { listData, readData } from '../../../../support/data.ts';

const mcq = listData('mmlu/test').flatMap((f) => loadMmluCsv(readData(`mmlu/test/${f}`), f.replace(/_test\.csv$/, '')));
const arithmetic = loadGsm8k(readData('gsm8k/test.jsonl'));

describe('expertsTaskSet and shortExpertsTaskSet', () => {
  it('splits MMLU and GSM8K questions into train and held-out by the seed alone, each kind in proportion', () => {
    const a = expertsTaskSet(mcq, arithmetic, { perKind: 100, heldOutShare: 0.2, seed: 1 });
    expect(a.train).toHaveLength(160);
    expect(a.heldOut).toHaveLength(40);
    expect(a.heldOut.filter((t) => t.kind === 'mcq')).toHaveLength(20);
    const ids = (ts: Task[]) => ts.map((t) => `${t.dataset}/${t.itemId}`);
    expect(new Set([...ids(a.train), ...ids(a.heldOut)]).size).toBe(200);
    expect(ids(expertsTaskSet([...mcq].reverse(), [...arithmetic].reverse(), { perKind: 100, seed: 1 }).train)).toEqual(ids(a.train));
    expect(ids(expertsTaskSet(mcq, arithmetic, { perKind: 100, seed: 2 }).heldOut)).not.toEqual(ids(a.heldOut));
  });

  it('generates short questions whose gold answers are right: sums and the largest choice', () => {
    const { train, heldOut } = shortExpertsTaskSet({ perKind: 50, heldOutShare: 0.2, seed: 4 });
    expect(train).toHaveLength(80);
    expect(heldOut.filter((t) => t.kind === 'mcq')).toHaveLength(10);
    for (const t of [...train, ...heldOut]) {
      if (t.kind === 'number') {
        const [a, b] = t.question.match(/\d+/g)!.map(Number);
        expect(t.answer).toBe(String(a + b));
      } else {
        const values = t.choices!.map(Number);
        expect(t.choices!['ABCD'.indexOf(t.answer!)]).toBe(String(Math.max(...values)));
      }
    }
    expect(shortExpertsTaskSet({ perKind: 50, seed: 4 }).train.map((t) => t.question)).toEqual(train.map((t) => t.question));
    expect(shortExpertsTaskSet({ perKind: 50, seed: 5 }).train.map((t) => t.question)).not.toEqual(train.map((t) => t.question));
  });

  it("gives short questions item ids distinct across both kinds, as an evaluation needs, without moving a seed's split", () => {
    const { train, heldOut } = shortExpertsTaskSet({ seed: 20261129 });
    const all = [...train, ...heldOut];
    expect(new Set(all.map((t) => t.itemId)).size).toBe(300);
    // The split the demo Conductor was trained and measured on (docs/learning.md): its first and last questions.
    expect([heldOut[0].question, heldOut[59].question, train[0].question, train[239].question]).toEqual([
      'Which is largest? A. 60 B. 73 C. 19 D. 88',
      'What is 59 + 77?',
      'What is 50 + 72?',
      'Which is largest? A. 59 B. 60 C. 10 D. 41',
    ]);
  });
});
