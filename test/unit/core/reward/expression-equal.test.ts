import { describe, expect, it } from 'vitest';
import { differencesProportional, evaluateClosed, expressionsEqual } from '../../../../src/core/reward/expression-equal.ts';
import { numbersClose } from '../../../../src/core/reward/numeric-close.ts';

describe('expressionsEqual', () => {
  it('is true, false, or null when a side cannot be evaluated', () => {
    expect(expressionsEqual('\\frac{\\sqrt{3}}{2}', '\\sqrt{3}/2')).toBe(true);
    expect(expressionsEqual('(x+1)^2', 'x^2+2x+1')).toBe(true);
    expect(expressionsEqual('(x+1)^2', 'x^2+1')).toBe(false);
    expect(expressionsEqual('\\int x', '1')).toBeNull();
    expect(expressionsEqual('\\sqrt{x}\\cdot 0/0', '1')).toBeNull();
  });
});

describe('evaluateClosed', () => {
  it('evaluates expressions without variables, complex ones included', () => {
    expect(evaluateClosed('\\frac{1}{4}')).toEqual({ re: 0.25, im: 0 });
    expect(evaluateClosed('\\sqrt{-4}')).toEqual({ re: 0, im: 2 });
    expect(evaluateClosed('x+1')).toBeNull();
  });
});

describe('differencesProportional', () => {
  it('is true for constant multiples only', () => {
    expect(differencesProportional('x+2y-3', '-2x-4y+6')).toBe(true);
    expect(differencesProportional('x+2y-3', 'x+2y+3')).toBe(false);
    expect(differencesProportional('0', '0')).toBeNull();
  });
});

describe('numbersClose', () => {
  it('uses a relative tolerance of 1e-6 and an absolute one of 1e-9', () => {
    expect(numbersClose(1_000_000, 1_000_000.5)).toBe(true);
    expect(numbersClose(1, 1.00001)).toBe(false);
    expect(numbersClose(0, 1e-10)).toBe(true);
    expect(numbersClose(0, 1e-8)).toBe(false);
    expect(numbersClose(Infinity, Infinity)).toBe(true);
    expect(numbersClose(Infinity, -Infinity)).toBe(false);
    expect(numbersClose(NaN, NaN)).toBe(false);
  });
});
