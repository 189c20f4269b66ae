import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/core/random.ts';
import { readTrainedFormat } from '../../../../src/core/rl/index.ts';
import { initLoraAdapter, parseModelConfig, readPeftAdapter, writePeftAdapter } from '../../../../src/engine/model/index.ts';
import { readTrainedAdapter, saveTrainedAdapter, trainedAdapterFiles } from '../../../../src/services/runtimes/index.ts';

const demoConfig = parseModelConfig(JSON.parse(readFileSync(new URL('../../../../public/demo-conductor/config.json', import.meta.url), 'utf8')));

describe('trained adapters', () => {
  it('keeps an adapter by name and serves it back as PEFT files the engine reads', async () => {
    const factory = new IDBFactory();
    const lora = initLoraAdapter(demoConfig, { r: 4, alpha: 8, targetModules: ['q_proj'], dropout: 0 }, seededRandom(1));
    lora.weights.get('model.layers.1.self_attn.q_proj')!.B.fill(0.25);
    const files = writePeftAdapter(lora);
    await saveTrainedAdapter(
      {
        name: 'run-a',
        adapterConfig: new TextDecoder().decode(files['adapter_config.json']),
        adapter: files['adapter_model.safetensors'],
        savedAt: '2026-12-01T00:00:00Z',
      },
      factory,
    );
    expect((await readTrainedAdapter('run-a', factory))?.savedAt).toBe('2026-12-01T00:00:00Z');

    const read = await readPeftAdapter(trainedAdapterFiles('run-a', factory), demoConfig);
    expect(read.config).toMatchObject({ r: 4, alpha: 8, targetModules: ['q_proj'] });
    expect([...read.weights.keys()].sort()).toEqual(['model.layers.0.self_attn.q_proj', 'model.layers.1.self_attn.q_proj']);
    expect(read.weights.get('model.layers.1.self_attn.q_proj')!.B.every((v) => v === 0.25)).toBe(true);
    expect(read.weights.get('model.layers.0.self_attn.q_proj')!.A).toEqual(lora.weights.get('model.layers.0.self_attn.q_proj')!.A);
  });

  it('serves the format it was trained in as its conductor.json, and none for an adapter kept without one', async () => {
    const factory = new IDBFactory();
    const format = { prompt: 'compact' as const, constrain: true, maxSteps: 2, fixedSubtasks: true };
    const adapter = { adapterConfig: '{}', adapter: new Uint8Array([1]), savedAt: '2026-12-01T00:00:00Z' };
    await saveTrainedAdapter({ name: 'with', ...adapter, format }, factory);
    await saveTrainedAdapter({ name: 'without', ...adapter }, factory);
    expect(await readTrainedFormat([trainedAdapterFiles('with', factory)])).toEqual(format);
    expect(await readTrainedFormat([trainedAdapterFiles('without', factory)])).toBeUndefined();
  });

  it('says how to get an adapter back once it is gone', async () => {
    await expect(readPeftAdapter(trainedAdapterFiles('gone', new IDBFactory()), demoConfig)).rejects.toMatchObject({
      code: 'data/not-found',
      message: expect.stringContaining('Train page'),
    });
  });
});
