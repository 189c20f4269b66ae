import { describe, expect, it } from 'vitest';
import { parsePoolFile } from '../../../../src/node/inputs/pool-file.ts';

const pool = (simulated: unknown) => JSON.stringify({ workers: [{ id: 'checker', provider: 'simulated', model: 'c', simulated }] });

describe('parsePoolFile: simulated behaviour', () => {
  it('takes the verifier probabilities as one number or one per kind', () => {
    const [w] = parsePoolFile(pool({ skill: { default: 0.3 }, confirmRight: 0.9, fixWrong: { default: 0.05, number: 0.7 } }));
    expect(w.simulated).toEqual({ skill: { default: 0.3 }, confirmRight: 0.9, fixWrong: { default: 0.05, number: 0.7 } });
  });

  it('refuses a per-kind probability without a default, or outside [0, 1], naming the field', () => {
    expect(() => parsePoolFile(pool({ skill: { default: 0.3 }, fixWrong: { number: 0.7 } }))).toThrow(/workers\[0\]\.simulated\.fixWrong.*"default"/);
    expect(() => parsePoolFile(pool({ skill: { default: 0.3 }, confirmRight: { default: 0.5, mcq: 1.5 } }))).toThrow(/simulated\.confirmRight\.mcq/);
    expect(() => parsePoolFile(pool({ skill: { math: 0.3 } }))).toThrow(/simulated\.skill.*"default"/);
  });
});

describe('parsePoolFile: engine workers', () => {
  const engine = (fields: Record<string, unknown>) => JSON.stringify([{ id: 'tiny', provider: 'engine', model: './models/tiny', ...fields }]);

  it('takes a model directory with an adapter directory and a weight format', () => {
    expect(parsePoolFile(engine({ adapter: './adapters/a', weights: 'int4' }))).toEqual([
      { id: 'tiny', provider: 'engine', model: './models/tiny', adapter: './adapters/a', weights: 'int4' },
    ]);
  });

  it('refuses an unknown weight format or an empty adapter, naming the field', () => {
    expect(() => parsePoolFile(engine({ weights: 'bf16' }))).toThrow(/\[0\]\.weights must be one of auto, f32, f16, int4, got "bf16"/);
    expect(() => parsePoolFile(engine({ adapter: '' }))).toThrow(/\[0\]\.adapter must be a non-empty string/);
  });
});

describe('parsePoolFile: fallbacks', () => {
  const two = (fallback: unknown) =>
    JSON.stringify({
      workers: [
        { id: 'gpt', provider: 'openai', model: 'gpt-4.1', fallback },
        { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5' },
      ],
    });

  it('takes a fallback that names another worker of the pool', () => {
    expect(parsePoolFile(two('claude'))[0].fallback).toBe('claude');
  });

  it('refuses a fallback naming no other worker, or the worker itself', () => {
    expect(() => parsePoolFile(two('gemini'))).toThrow(/workers\[0\]\.fallback must be the id of another worker of this pool, got "gemini"/);
    expect(() => parsePoolFile(two('gpt'))).toThrow(/workers\[0\]\.fallback must be the id of another worker/);
  });
});
