import { describe, expect, it } from 'vitest';
import { canonicalDecimal, lastNumber, numberTokens, parseNumber, plainNumber } from '../../../../src/core/reward/numbers.ts';

describe('numbers', () => {
  it('writes a decimal numeral in one form, exactly at any length, and nothing else', () => {
    expect(['07.50', '7.5', '+7.500'].map(canonicalDecimal)).toEqual(['7.5', '7.5', '7.5']);
    expect(['-0', '0.0', '.0', '000'].map(canonicalDecimal)).toEqual(['0', '0', '0', '0']);
    expect(canonicalDecimal('-.25')).toBe('-0.25');
    expect(canonicalDecimal('11111111100000000001')).not.toBe(canonicalDecimal('11111111100000000000'));
    expect(['', '.', '-', '1e5', '1,000', '3/4', '2x'].map(canonicalDecimal)).toEqual([null, null, null, null, null, null, null]);
  });

  it('parses currency, thousands separators, fractions and percentages', () => {
    expect(parseNumber('$1,234.50')).toBe(1234.5);
    expect(parseNumber('\\$18')).toBe(18);
    expect(parseNumber('−7')).toBe(-7);
    expect(parseNumber('3/4')).toBe(0.75);
    expect(parseNumber('12%')).toBe(12);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('18 dollars')).toBeNull();
    expect(parseNumber('1/0')).toBeNull();
  });

  it('finds number tokens in prose and the last one', () => {
    expect(numberTokens('Sold 1,200 eggs at $2.50 each, -3 broke')).toEqual(['1,200', '$2.50', '-3']);
    expect(lastNumber('9 * 2 = 18 dollars.')).toBe('18');
    expect(lastNumber('no numbers')).toBeNull();
  });

  it('strips currency and thousands separators from a lone number, and leaves other text', () => {
    expect(plainNumber('$1,234.50')).toBe('1234.50');
    expect(plainNumber(' -7 ')).toBe('-7');
    expect(plainNumber('18 dollars')).toBe('18 dollars');
    expect(plainNumber('3/4')).toBe('3/4');
  });
});
