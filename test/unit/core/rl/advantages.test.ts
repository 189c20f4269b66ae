import { describe, expect, it } from 'vitest';
import { groupAdvantages, sampleStd } from '../../../../src/core/rl/index.ts';

// Two groups: means 0.5 and 1; unbiased stds sqrt(1/3) and 1; the whole batch's std sqrt(4/7) (mean 5/7,
// squared deviations (4 + 25 + 25 + 4 + 81 + 25 + 4) / 49 = 24/7, over n - 1 = 6).
const rewards = [
  [1, 0, 0, 1],
  [2, 0, 1],
];

function expectClose(actual: number[][], expected: number[][]): void {
  expect(actual.map((g) => g.length)).toEqual(expected.map((g) => g.length));
  actual.forEach((g, i) => g.forEach((a, j) => expect(a).toBeCloseTo(expected[i][j], 12)));
}

describe('sampleStd', () => {
  it('divides by n - 1, as torch.std', () => {
    expect(sampleStd([2, 0, 1])).toBeCloseTo(1, 15);
    expect(sampleStd([1, 0, 0, 1])).toBeCloseTo(Math.sqrt(1 / 3), 15);
  });
  it('is 0 for one value', () => {
    expect(sampleStd([3])).toBe(0);
  });
});

describe('groupAdvantages', () => {
  it("'group': (r - group mean) / (group std + 1e-4)", () => {
    const s0 = Math.sqrt(1 / 3) + 1e-4;
    const s1 = 1 + 1e-4;
    expectClose(groupAdvantages(rewards, 'group'), [
      [0.5 / s0, -0.5 / s0, -0.5 / s0, 0.5 / s0],
      [1 / s1, -1 / s1, 0],
    ]);
  });

  it("is 'group' by default", () => {
    expect(groupAdvantages(rewards)).toEqual(groupAdvantages(rewards, 'group'));
  });

  it("'batch': the group's mean, the whole batch's std", () => {
    const s = Math.sqrt(4 / 7) + 1e-4;
    expectClose(groupAdvantages(rewards, 'batch'), [
      [0.5 / s, -0.5 / s, -0.5 / s, 0.5 / s],
      [1 / s, -1 / s, 0],
    ]);
  });

  it("'none': r - group mean", () => {
    expectClose(groupAdvantages(rewards, 'none'), [
      [0.5, -0.5, -0.5, 0.5],
      [1, -1, 0],
    ]);
  });

  it('gives 0 to a group whose rewards are all equal, and to a group of one', () => {
    for (const scaling of ['group', 'batch', 'none'] as const) {
      expect(groupAdvantages([[0.5, 0.5, 0.5], [3], [1, 0]], scaling).slice(0, 2)).toEqual([[0, 0, 0], [0]]);
    }
  });

  it('rejects an empty group and a non-finite reward, naming where', () => {
    expect(() => groupAdvantages([[1], []])).toThrow(/Group 1 has no rewards/);
    expect(() => groupAdvantages([[1, Number.NaN]])).toThrow(/Group 0, completion 1/);
  });
});
