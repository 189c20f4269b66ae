import { describe, expect, it } from 'vitest';
import { defaultKeyName, resolveApiKey } from '../../../../src/core/providers/keys.ts';
import type { WorkerSpec } from '../../../../src/core/providers/types.ts';

const spec = (over: Partial<WorkerSpec>): WorkerSpec => ({ id: 'w', provider: 'openai', model: 'm', ...over });

describe('resolveApiKey', () => {
  it("reads each provider's usual variable", () => {
    const env = { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g', OPENROUTER_API_KEY: 'r' };
    expect(resolveApiKey(spec({ provider: 'openai' }), env)).toEqual({ key: 'o', keyName: 'OPENAI_API_KEY' });
    expect(resolveApiKey(spec({ provider: 'anthropic' }), env)).toEqual({ key: 'a', keyName: 'ANTHROPIC_API_KEY' });
    expect(resolveApiKey(spec({ provider: 'google' }), env)).toEqual({ key: 'g', keyName: 'GEMINI_API_KEY' });
    expect(resolveApiKey(spec({ provider: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1' }), env)).toEqual({
      key: 'r',
      keyName: 'OPENROUTER_API_KEY',
    });
  });

  it('falls back to GOOGLE_GENERATIVE_AI_API_KEY, then GOOGLE_API_KEY, for Gemini', () => {
    expect(resolveApiKey(spec({ provider: 'google' }), { GOOGLE_GENERATIVE_AI_API_KEY: 'g2', GOOGLE_API_KEY: 'g3' })).toEqual({
      key: 'g2',
      keyName: 'GOOGLE_GENERATIVE_AI_API_KEY',
    });
    expect(resolveApiKey(spec({ provider: 'google' }), { GOOGLE_API_KEY: 'g3' })).toEqual({ key: 'g3', keyName: 'GOOGLE_API_KEY' });
    expect(resolveApiKey(spec({ provider: 'google' }), {})).toEqual({ keyName: 'GEMINI_API_KEY' });
  });

  it("prefers the spec's keyEnv and treats an empty variable as unset", () => {
    const env = { OPENAI_API_KEY: 'o', TEAM_KEY: 't', BLANK: '  ' };
    expect(resolveApiKey(spec({ keyEnv: 'TEAM_KEY' }), env)).toEqual({ key: 't', keyName: 'TEAM_KEY' });
    expect(resolveApiKey(spec({ keyEnv: 'BLANK' }), env)).toEqual({ keyName: 'BLANK' });
    expect(resolveApiKey(spec({ provider: 'google', keyEnv: 'TEAM_KEY' }), env)).toEqual({ key: 't', keyName: 'TEAM_KEY' });
  });

  it('expects no key for a local OpenAI-compatible server', () => {
    const local = spec({ provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' });
    expect(resolveApiKey(local, { OPENAI_API_KEY: 'o' })).toEqual({ keyName: undefined });
    expect(defaultKeyName(local)).toBeUndefined();
    expect(defaultKeyName(spec({ provider: 'simulated' }))).toBeUndefined();
  });
});
