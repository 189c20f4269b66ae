/** The non-decreasing convex hull of single models on the cost-quality plane, and which side of it a point lies. */
import { describe, expect, it } from 'vitest';
import { costQualityHull, hullAccuracyAt, sideOfHull } from '../../../../../src/core/bench/eval/cost-quality-hull.ts';

const p = (name: string, cost: number, accuracy: number) => ({ name, cost, accuracy });

// cheap 0.5 at $1, mid 0.6 at $2 (under the cheap-dear segment: 0.5 + 0.4 / 9), good 0.85 at $4, dear 0.9 at $10,
// waste 0.7 at $12 (dearer and worse than dear), twin 0.9 at $11 (as accurate as dear, dearer).
const singles = [p('dear', 10, 0.9), p('mid', 2, 0.6), p('cheap', 1, 0.5), p('good', 4, 0.85), p('waste', 12, 0.7), p('twin', 11, 0.9)];

describe('costQualityHull', () => {
  it('keeps the concave, non-decreasing boundary from the cheapest to the cheapest most accurate model', () => {
    expect(costQualityHull(singles).map((x) => x.name)).toEqual(['cheap', 'good', 'dear']);
  });

  it('drops a model exactly on a segment, and is the one point for one model', () => {
    expect(costQualityHull([p('a', 1, 0.5), p('b', 2, 0.6), p('c', 3, 0.7)]).map((x) => x.name)).toEqual(['a', 'c']);
    expect(costQualityHull([p('a', 1, 0.5)]).map((x) => x.name)).toEqual(['a']);
  });

  it('drops a cheap model under the line from answering nothing to a dearer one', () => {
    // Half the questions to b (the rest unanswered) reaches 0.45 at $1, above a's 0.2.
    expect(costQualityHull([p('a', 1, 0.2), p('b', 2, 0.9)]).map((x) => x.name)).toEqual(['b']);
    expect(costQualityHull([p('free', 0, 0), p('b', 2, 0.9)]).map((x) => x.name)).toEqual(['b']);
  });
});

describe('sideOfHull', () => {
  const hull = costQualityHull(singles);

  it('interpolates between vertices and stays flat past the most accurate', () => {
    expect(hullAccuracyAt(hull, 2.5)).toBeCloseTo(0.5 + (0.35 * 1.5) / 3, 12);
    expect(hullAccuracyAt(hull, 50)).toBe(0.9);
    // Below the cheapest model, its mix with answering nothing.
    expect(hullAccuracyAt(hull, 0.5)).toBeCloseTo(0.25, 12);
    expect(hullAccuracyAt(hull, 0)).toBe(0);
  });

  it('tells a point above, below and on it', () => {
    expect(sideOfHull(hull, { cost: 2.5, accuracy: 0.8 })).toBe('above');
    expect(sideOfHull(hull, { cost: 2, accuracy: 0.6 })).toBe('below');
    expect(sideOfHull(hull, { cost: 7, accuracy: 0.875 })).toBe('on');
    expect(sideOfHull(hull, { cost: 20, accuracy: 0.9 })).toBe('on');
    expect(sideOfHull(hull, { cost: 0.5, accuracy: 0.3 })).toBe('above');
    expect(sideOfHull(hull, { cost: 0.5, accuracy: 0.1 })).toBe('below');
    // Cheaper than every model is not above for that alone: a method that answered nothing is on the line.
    expect(sideOfHull(hull, { cost: 0, accuracy: 0 })).toBe('on');
  });
});
