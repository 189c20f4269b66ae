import { describe, expect, it } from 'vitest';
import { parseMethodSpec } from '../../../../../src/core/bench/index.ts';

describe('parseMethodSpec', () => {
  it('reads every method form', () => {
    expect(parseMethodSpec('single:gpt', 'dir')).toEqual({ kind: 'single', worker: 'gpt' });
    expect(parseMethodSpec('oracle', 'dir')).toEqual({ kind: 'oracle' });
    expect(parseMethodSpec('random', 'dir')).toEqual({ kind: 'random' });
    expect(parseMethodSpec('round-robin', 'dir')).toEqual({ kind: 'round-robin' });
    expect(parseMethodSpec('moa', 'dir')).toEqual({ kind: 'moa', layers: 1 });
    expect(parseMethodSpec('moa:layers=3,aggregator=claude', 'dir')).toEqual({ kind: 'moa', layers: 3, aggregator: 'claude' });
    expect(parseMethodSpec('self-reflect:gpt,5', 'dir')).toEqual({ kind: 'self-reflect', worker: 'gpt', rounds: 5 });
    expect(parseMethodSpec('fixed:plans/a.txt', 'dir')).toEqual({ kind: 'fixed', file: 'plans/a.txt' });
    expect(parseMethodSpec('conductor:worker:gpt', 'dir')).toEqual({ kind: 'conductor', conductor: { kind: 'pool-worker', workerId: 'gpt' } });
    expect(parseMethodSpec('conductor:engine:Qwen/Q', 'dir')).toEqual({
      kind: 'conductor',
      conductor: { kind: 'engine-model', model: { source: { from: 'dir', path: 'Qwen/Q' }, weights: 'auto' } },
    });
    expect(parseMethodSpec('conductor:engine:Qwen/Q', 'web')).toEqual({
      kind: 'conductor',
      conductor: { kind: 'engine-model', model: { source: { from: 'hub', repo: 'Qwen/Q' }, weights: 'auto' } },
    });
  });

  it('names what is wrong with a method', () => {
    expect(() => parseMethodSpec('single:', 'dir')).toThrow(/A method must be/);
    expect(() => parseMethodSpec('oracle:x', 'dir')).toThrow(/A method must be/);
    expect(() => parseMethodSpec('self-reflect:gpt', 'dir')).toThrow(/A method must be/);
    expect(() => parseMethodSpec('self-reflect:gpt,0', 'dir')).toThrow(/at least 1, got "0"/);
    expect(() => parseMethodSpec('moa:depth=2', 'dir')).toThrow(/moa takes layers=L/);
    expect(() => parseMethodSpec('conductor:nonsense', 'dir')).toThrow(/A Conductor must be/);
  });
});
