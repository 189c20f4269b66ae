import { describe, expect, it } from 'vitest';
import { PRICE_TABLE, PRICE_TABLE_DATE, priceFor, priceForWorker } from '../../../../src/core/pricing/index.ts';

describe('priceFor', () => {
  it('finds listed models exactly', () => {
    expect(priceFor('gpt-5')).toEqual({ input: 1.25, output: 10, cachedInput: 0.125 });
    expect(priceFor('gpt-5-mini')).toEqual({ input: 0.25, output: 2, cachedInput: 0.025 });
    expect(priceFor('claude-sonnet-4-5')).toEqual({ input: 3, output: 15, cachedInput: 0.3 });
    expect(priceFor('gemini-2.5-flash-lite')).toMatchObject({ input: 0.1, output: 0.4 });
  });

  it('maps dated snapshots and aliases to their base, the longest base first', () => {
    expect(priceFor('claude-sonnet-4-5-20250929')).toEqual(priceFor('claude-sonnet-4-5'));
    expect(priceFor('claude-sonnet-4-20250514')).toEqual(priceFor('claude-sonnet-4'));
    expect(priceFor('claude-opus-4-1-20250805')).toMatchObject({ input: 15, output: 75 });
    expect(priceFor('claude-opus-4-0')).toMatchObject({ input: 15 });
    expect(priceFor('gpt-4o-mini-2024-07-18')).toEqual(priceFor('gpt-4o-mini'));
    expect(priceFor('gpt-5-mini-2025-08-07')).toEqual(priceFor('gpt-5-mini'));
    expect(priceFor('claude-3-7-sonnet-latest')).toMatchObject({ input: 3 });
    expect(priceFor('gemini-2.5-flash-preview-09-2025')).toEqual(priceFor('gemini-2.5-flash'));
    // OpenAI's four-digit snapshots; 'gpt-4-turbo' is its own row, never read as 'gpt-4' plus a suffix.
    expect(priceFor('gpt-3.5-turbo-0125')).toEqual({ input: 0.5, output: 1.5 });
    expect(priceFor('gpt-4-turbo-2024-04-09')).toEqual({ input: 10, output: 30 });
    expect(priceFor('o1-mini-2024-09-12')).toEqual(priceFor('o1-mini'));
  });

  it('lets a listed snapshot keep its own price', () => {
    expect(priceFor('gpt-4o-2024-05-13')).toEqual({ input: 5, output: 15 });
    expect(priceFor('gpt-4o-2024-08-06')).toEqual(priceFor('gpt-4o'));
  });

  it('reads OpenRouter names: vendor prefix, dots, and free variants', () => {
    expect(priceFor('anthropic/claude-sonnet-4.5')).toEqual(priceFor('claude-sonnet-4-5'));
    expect(priceFor('openai/gpt-4.1-mini')).toEqual({ input: 0.4, output: 1.6, cachedInput: 0.1 });
    expect(priceFor('google/gemini-2.5-pro')).toMatchObject({ input: 1.25, output: 10 });
    expect(priceFor('Meta-Llama/Llama-3.3-70B-Instruct')).toMatchObject({ input: 0.13 });
    expect(priceFor('meta-llama/llama-3.3-70b-instruct:free')).toEqual({ input: 0, output: 0 });
  });

  it('leaves unknown models unknown instead of guessing a neighbour', () => {
    expect(priceFor('gpt-5-pro')).toBeUndefined();
    expect(priceFor('gpt-4o-audio-preview-x')).toBeUndefined();
    expect(priceFor('my-local-model')).toBeUndefined();
    expect(priceFor('claude-sonnet-4-5-extra')).toBeUndefined();
  });

  it('merges user prices on top of the table', () => {
    const overrides = { 'gpt-5': { input: 1, output: 8 }, 'my-local-model': { input: 0, output: 0 } };
    expect(priceFor('gpt-5-2025-08-07', overrides)).toEqual({ input: 1, output: 8 });
    expect(priceFor('my-local-model', overrides)).toEqual({ input: 0, output: 0 });
    expect(priceFor('gpt-5-mini', overrides)).toEqual({ input: 0.25, output: 2, cachedInput: 0.025 });
  });
});

describe('priceForWorker', () => {
  it("takes the spec's own price first, the table for hosted APIs, and only overrides for self-hosted servers", () => {
    const own = { input: 9, output: 9 };
    expect(priceForWorker({ provider: 'openai', model: 'gpt-5', price: own })).toBe(own);
    expect(priceForWorker({ provider: 'anthropic', model: 'claude-haiku-4-5' })).toMatchObject({ input: 1, output: 5 });
    const openrouter = { id: 'b', provider: 'openai-compatible' as const, model: 'openai/gpt-oss-120b', baseUrl: 'https://openrouter.ai/api/v1' };
    expect(priceForWorker(openrouter)).toMatchObject({ input: 0.1 });
    const vllm = { ...openrouter, baseUrl: 'http://gpu-box:8000/v1' };
    expect(priceForWorker(vllm)).toBeUndefined();
    expect(priceForWorker(vllm, { 'openai/gpt-oss-120b': { input: 0.01, output: 0.02 } })).toEqual({ input: 0.01, output: 0.02 });
  });
});

describe('PRICE_TABLE', () => {
  it('is dated, has one row per model, and only positive prices with cache reads cheaper than input', () => {
    expect(PRICE_TABLE_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const models = PRICE_TABLE.map((e) => e.model);
    expect(new Set(models).size).toBe(models.length);
    for (const e of PRICE_TABLE) {
      expect(e.input).toBeGreaterThan(0);
      expect(e.output).toBeGreaterThanOrEqual(e.input);
      if (e.cachedInput !== undefined) expect(e.cachedInput).toBeLessThan(e.input);
    }
  });
});
