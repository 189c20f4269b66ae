import { describe, expect, it } from 'vitest';
import { presetFileText, readPresetFile, type Preset } from '../../../../src/app/state/preset-schema.ts';

const preset: Preset = {
  name: 'cheap and fast',
  pool: [
    { id: 'gpt', provider: 'openai', model: 'gpt-5-mini', keyEnv: 'OPENAI_API_KEY', maxTokens: 2048, fallback: 'claude', price: { input: 0.25, output: 2 } },
    { id: 'claude', provider: 'anthropic', model: 'claude-haiku-4-5' },
  ],
  conductor: { kind: 'pool-worker', workerId: 'gpt' },
  limits: { runUsd: 0.5, dayUsd: 2, monthUsd: null },
};

describe('preset files', () => {
  it('round-trip a preset: pool, Conductor and limits', () => {
    const text = presetFileText(preset);
    expect(JSON.parse(text)).toMatchObject({ kind: 'baton-preset', version: 1, name: 'cheap and fast' });
    expect(readPresetFile(text)).toEqual({ ok: true, preset });
  });

  it('refuses a file with a field that looks like a key, naming it', () => {
    const withKey = { ...JSON.parse(presetFileText(preset)), pool: [{ ...preset.pool[0], apiKey: 'sk-live-123' }, preset.pool[1]] };
    expect(readPresetFile(JSON.stringify(withKey))).toEqual({
      ok: false,
      message: expect.stringMatching(/^Not a usable Baton preset: pool\[0\]\.apiKey looks like a key, and a preset never holds keys/),
    });
  });

  it('says plainly what is wrong with a bad file', () => {
    const bad = (change: Record<string, unknown>) => readPresetFile(JSON.stringify({ ...JSON.parse(presetFileText(preset)), ...change }));
    expect(readPresetFile('{"name": ')).toEqual({ ok: false, message: expect.stringMatching(/^Not a usable Baton preset: the file is not JSON \(/) });
    expect(readPresetFile('[1, 2]')).toEqual({ ok: false, message: 'Not a usable Baton preset: the file holds no JSON object.' });
    expect(bad({ kind: 'baton-pool' })).toMatchObject({ message: expect.stringContaining('its kind is "baton-pool", not "baton-preset"') });
    expect(bad({ name: ' ' })).toMatchObject({ message: expect.stringContaining('name must be a non-empty text') });
    expect(bad({ pool: [] })).toMatchObject({ message: expect.stringContaining('pool must be a list of at least one worker') });
    expect(bad({ pool: [preset.pool[0], { id: 'x', provider: 'nope', model: 'm' }] })).toMatchObject({
      message: expect.stringContaining('pool[1] is not a worker'),
    });
    expect(bad({ conductor: { kind: 'pool-worker', workerId: 'gone' } })).toMatchObject({ message: expect.stringContaining('names worker "gone"') });
    expect(bad({ conductor: { kind: 'oracle' } })).toMatchObject({ message: expect.stringContaining('"oracle" is not a Conductor choice') });
    expect(bad({ limits: { dayUsd: -3 } })).toMatchObject({
      message: expect.stringContaining('limits.dayUsd must be a positive number of dollars or null, got -3'),
    });
  });
});
