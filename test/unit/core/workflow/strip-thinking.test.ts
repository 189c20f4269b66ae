import { describe, expect, it } from 'vitest';
import { stripThinking } from '../../../../src/core/workflow/strip-thinking.ts';

describe('stripThinking', () => {
  it('drops closed think blocks, wherever they are', () => {
    expect(stripThinking('<think>a\nb</think>\nanswer <THINKING>c</thinking>end')).toBe('\nanswer end');
  });

  it('drops everything before a closing tag that has no opening one', () => {
    expect(stripThinking('draft model_id = [1]\n</think>\nfinal')).toBe('\nfinal');
  });

  it('drops everything from an opening tag that is never closed', () => {
    expect(stripThinking('answer\n<think>unfinished model_id = [1]')).toBe('answer\n');
  });

  it('leaves text without tags alone', () => {
    expect(stripThinking('model_id = [0]')).toBe('model_id = [0]');
  });
});
