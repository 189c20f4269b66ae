import { describe, expect, it } from 'vitest';
import { reasoningEffort, thinkingBudget } from '../../../../../src/core/providers/common/reasoning.ts';

describe('reasoning settings', () => {
  it('passes budgets through and maps effort words to budgets', () => {
    expect(thinkingBudget(5000)).toBe(5000);
    expect(thinkingBudget('minimal')).toBe(0);
    expect(thinkingBudget('high')).toBe(24_576);
    expect(thinkingBudget(undefined)).toBeUndefined();
  });
  it('passes effort words through and maps budgets to the nearest word', () => {
    expect(reasoningEffort('medium')).toBe('medium');
    expect(reasoningEffort(0)).toBe('minimal');
    expect(reasoningEffort(1024)).toBe('low');
    expect(reasoningEffort(8192)).toBe('medium');
    expect(reasoningEffort(30_000)).toBe('high');
    expect(reasoningEffort(undefined)).toBeUndefined();
  });
});
