import { describe, expect, it } from 'vitest';
import { validateEpisode, type Episode } from '../../../../src/core/episodes/index.ts';
import { makeEpisodes } from '../../../support/episode-factory.ts';

const [base] = makeEpisodes(1, 71);
const variant = (change: (ep: Record<string, any>) => void): unknown => {
  const ep = structuredClone(base) as unknown as Record<string, any>;
  change(ep);
  return ep;
};
const message = (value: unknown) => {
  const result = validateEpisode(value);
  return result.ok ? 'ok' : result.message;
};

describe('validateEpisode', () => {
  it('accepts every episode the factory makes, and extra fields a later version may add', () => {
    for (const ep of makeEpisodes(300, 72)) expect(message(ep)).toBe('ok');
    expect(message(variant((ep) => (ep.futureField = { anything: true })))).toBe('ok');
  });

  it('names the first bad field by its path, with what was expected and what came', () => {
    expect(message('text')).toBe('not an episode: expected an object, got "text"');
    expect(message([{}])).toBe('not an episode: expected an object, got an array');
    expect(message(variant((ep) => delete ep.steps))).toBe('steps: expected an array, got nothing (field missing)');
    expect(message(variant((ep) => (ep.task.kind = 'essay')))).toBe(
      'task.kind: expected "math" or "gsm8k" or "number" or "mcq" or "exact" or "literal" or "code" or "open", got "essay"',
    );
    expect(message(variant((ep) => (ep.tags = ['a', 3])))).toBe('tags[1]: expected a string, got 3');
    expect(message(variant((ep) => (ep.totals.costUsd = '0.1')))).toBe('totals.costUsd: expected a number, got "0.1"');
    expect(message(variant((ep) => (ep.pool[1].price.output = null)))).toBe('pool[1].price.output: expected a number, got null');
    expect(message(variant((ep) => (ep.version = 2)))).toBe('version: expected 1, got 2');
    expect(message(variant((ep) => (ep.id = '')))).toBe('id: expected a non-empty string, got ""');
  });

  it('checks nested steps, access lists and rewards', () => {
    const withStep = makeEpisodes(20, 73).find((e) => e.steps.length > 0) as Episode;
    const bad = structuredClone(withStep) as unknown as Record<string, any>;
    bad.steps[0].access = ['all'];
    expect(message(bad)).toBe('steps[0].access[0]: expected a whole number >= 0, got "all"');
    bad.steps[0].access = [0, -1];
    expect(message(bad)).toBe('steps[0].access[1]: expected a whole number >= 0, got -1');
    bad.steps[0].access = 'none';
    expect(message(bad)).toBe('steps[0].access: expected "all" or an array, got "none"');
    bad.steps[0].access = 'all';
    bad.steps[0].usage.output = 1.5;
    expect(message(bad)).toBe('steps[0].usage.output: expected a whole number >= 0, got 1.5');
    bad.steps[0].usage.output = 1;
    bad.steps[0].fromCache = true;
    expect(message(bad)).toBe('ok');
    bad.steps[0].fromCache = 'yes';
    expect(message(bad)).toBe('steps[0].fromCache: expected true or false, got "yes"');
    expect(message(variant((ep) => (ep.reward = { value: 1, correct: 'yes', format: true })))).toBe('reward.correct: expected true or false, got "yes"');
  });

  it('wants createdAt exactly as toISOString writes it, since stores order times as text', () => {
    expect(message(variant((ep) => (ep.createdAt = '2026-01-01T00:00:00Z')))).toMatch(/^createdAt: expected a UTC time as Date.toISOString\(\) writes it/);
    expect(message(variant((ep) => (ep.createdAt = '2026-01-01T02:00:00.000+02:00')))).toMatch(/^createdAt:/);
    expect(message(variant((ep) => (ep.createdAt = '2026-01-01T00:00:00.000Z')))).toBe('ok');
  });
});
