import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { gradeAnswer, gsm8kGold, isGradable } from '../../../../src/core/reward/grade.ts';

describe('gradeAnswer', () => {
  it('math: extracts and compares by equivalence', () => {
    expect(gradeAnswer('so <answer>\\dfrac{1}{2}</answer>', { kind: 'math', answer: '0.5' })).toEqual({
      correct: true,
      extracted: '\\dfrac{1}{2}',
      gold: '0.5',
    });
    expect(gradeAnswer('\\boxed{2}', { kind: 'math', answer: '\\frac12' }).correct).toBe(false);
    expect(gradeAnswer('I think it is 0.5', { kind: 'math', answer: '0.5' })).toEqual({ correct: false, extracted: null, gold: '0.5' });
  });

  it('gsm8k: the gold after ####, numbers compared as numbers', () => {
    const task = { kind: 'gsm8k' as const, answer: 'She has 9 eggs.\nSo 9 * 2 = <<9*2=18>>18\n#### 1,018' };
    expect(gsm8kGold(task.answer)).toBe('1,018');
    expect(gradeAnswer('<answer>$1018.00</answer>', task)).toEqual({ correct: true, extracted: '1018.00', gold: '1018' });
    expect(gradeAnswer('<answer>It is 1,018 dollars</answer>', task).correct).toBe(true);
    expect(gradeAnswer('Total: 1018', task).correct).toBe(true);
    expect(gradeAnswer('<answer>1,019</answer>', task).correct).toBe(false);
    expect(gradeAnswer('<answer>101.8</answer>', task).correct).toBe(false);
    expect(gradeAnswer('#### 18', { kind: 'gsm8k', answer: '18' }).correct).toBe(true);
  });

  it('number: plain and LaTeX numbers', () => {
    expect(gradeAnswer('<answer>-7</answer>', { kind: 'number', answer: '−7' }).correct).toBe(true);
    expect(gradeAnswer('<answer>\\frac{3}{4}</answer>', { kind: 'number', answer: '0.75' }).correct).toBe(true);
    expect(gradeAnswer('<answer>0.75</answer>', { kind: 'number', answer: '\\frac{3}{4}' }).correct).toBe(true);
    expect(gradeAnswer('<answer>7</answer>', { kind: 'number', answer: '-7' }).correct).toBe(false);
  });

  it('mcq: letters and option texts, gold as a letter or as text', () => {
    const choices = ['London', 'Paris', 'Rome', 'Oslo'];
    expect(gradeAnswer('The answer is (B).', { kind: 'mcq', answer: 'B' })).toEqual({ correct: true, extracted: 'B', gold: 'B' });
    expect(gradeAnswer('<answer>Paris</answer>', { kind: 'mcq', answer: 'B', choices }).correct).toBe(true);
    expect(gradeAnswer('<answer>B</answer>', { kind: 'mcq', answer: 'Paris', choices })).toEqual({ correct: true, extracted: 'B', gold: 'B' });
    expect(gradeAnswer('<answer>C</answer>', { kind: 'mcq', answer: '(B)' }).correct).toBe(false);
    expect(gradeAnswer('I am not sure.', { kind: 'mcq', answer: 'B' })).toEqual({ correct: false, extracted: null, gold: 'B' });
  });

  it('exact: trimmed, case-insensitive, whitespace collapsed', () => {
    expect(gradeAnswer('<answer>  new   york </answer>', { kind: 'exact', answer: 'New York' }).correct).toBe(true);
    expect(gradeAnswer('<answer>New-York</answer>', { kind: 'exact', answer: 'New York' }).correct).toBe(false);
  });

  it('refuses code, open and gold-less tasks with a BatonError that says why', () => {
    for (const task of [{ kind: 'code' as const, answer: 'def f(): pass' }, { kind: 'open' as const }, { kind: 'math' as const }]) {
      expect(isGradable(task)).toBe(false);
      let error: unknown;
      try {
        gradeAnswer('x', task);
      } catch (e) {
        error = e;
      }
      expect(BatonError.is(error, 'run/config')).toBe(true);
      expect((error as Error).message).toMatch(/Cannot grade/);
    }
    expect(
      (() => {
        try {
          gradeAnswer('x', { kind: 'code', answer: 'y' });
        } catch (e) {
          return (e as Error).message;
        }
      })(),
    ).toMatch(/sandbox/);
    expect(isGradable({ kind: 'math', answer: '1' })).toBe(true);
  });
});
