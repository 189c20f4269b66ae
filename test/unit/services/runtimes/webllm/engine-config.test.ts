import { prebuiltAppConfig, type InitProgressReport } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { buildWebllmEngineConfig, webllmModelChoices, type WebllmLoadProgress } from '../../../../../src/services/runtimes/webllm/index.ts';

const choice = webllmModelChoices({ shaderF16: false }, prebuiltAppConfig.model_list).find((c) => c.modelId === 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC')!;

describe('buildWebllmEngineConfig', () => {
  it('lists only the chosen model, in the Cache API by default, with a quiet log', () => {
    const setup = buildWebllmEngineConfig(choice, { onProgress: () => {} });
    expect(setup.modelId).toBe('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(setup.engineConfig.appConfig).toEqual({ model_list: [choice.record], cacheBackend: 'cache' });
    expect(setup.engineConfig.logLevel).toBe('ERROR');
  });

  it('uses IndexedDB when asked', () => {
    const setup = buildWebllmEngineConfig(choice, { onProgress: () => {}, cache: 'indexeddb' });
    expect(setup.engineConfig.appConfig?.cacheBackend).toBe('indexeddb');
  });

  it("passes web-llm's reports to onProgress in Baton's shape", () => {
    const seen: WebllmLoadProgress[] = [];
    let clock = 0;
    const setup = buildWebllmEngineConfig(choice, { onProgress: (p) => seen.push(p), now: () => clock });
    const report = (r: InitProgressReport) => setup.engineConfig.initProgressCallback?.(r);
    report({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
    clock = 4000;
    report({ progress: 0.25, timeElapsed: 4, text: 'Fetching param cache[8/32]: 256MB fetched. 25% completed, 4 secs elapsed.' });
    expect(seen).toEqual([
      { phase: 'download', fraction: 0, bytesLoaded: 0, text: 'Downloading the model: 0 MB' },
      {
        phase: 'download',
        fraction: 0.25,
        step: { done: 8, total: 32 },
        bytesLoaded: 256 * 2 ** 20,
        bytesTotal: 1024 * 2 ** 20,
        bytesPerSecond: 64 * 2 ** 20,
        secondsLeft: 12,
        text: 'Downloading the model: 256 MB of about 1,024 MB, 64.0 MB/s, about 12 s left',
      },
    ]);
  });
});
