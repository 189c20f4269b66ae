/** How an engine pool worker names its model: the same choice the Conductor page makes, so the two can share a load. */
import { describe, expect, it } from 'vitest';
import { DEMO_ENGINE_MODEL, parseConductorChoice, type EngineModelChoice } from '../../../../src/core/conductor/index.ts';
import { engineWorkerChoice, engineWorkerFields } from '../../../../src/services/runtimes/engine-worker-choice.ts';

const worker = (fields: { model: string; adapter?: string; weights?: 'f32' | 'int4' }) => ({ id: 'w', provider: 'engine' as const, ...fields });

describe('engineWorkerChoice', () => {
  it("names the demo Conductor's own choice for 'demo', so a worker on it shares the demo Conductor's load", () => {
    expect(engineWorkerChoice(worker({ model: 'demo' }))).toEqual(DEMO_ENGINE_MODEL);
  });

  it('reads Hub repo ids, URLs and adapters trained in this browser', () => {
    expect(engineWorkerChoice(worker({ model: 'Qwen/Qwen2.5-0.5B-Instruct', weights: 'int4', adapter: 'trained:my run' }))).toEqual({
      source: { from: 'hub', repo: 'Qwen/Qwen2.5-0.5B-Instruct' },
      weights: 'int4',
      adapter: { from: 'trained', name: 'my run' },
    });
    expect(engineWorkerChoice(worker({ model: 'http://127.0.0.1:9000/m/', adapter: 'me/adapter' }))).toEqual({
      source: { from: 'url', url: 'http://127.0.0.1:9000/m/' },
      weights: 'auto',
      adapter: { from: 'hub', repo: 'me/adapter' },
    });
  });

  it('reads a model and an adapter as the Evaluate page reads engine:<model>,lora=<adapter>', () => {
    const names = [
      ['https://huggingface.co/Qwen/Qwen3-0.6B', 'trained:run 2'],
      ['HTTP://127.0.0.1:9000/m/', 'me/lora'],
      ['demo', 'https://example.org/a/'],
    ];
    for (const [model, adapter] of names) {
      expect(parseConductorChoice(`engine:${model},lora=${adapter}`, 'web')).toEqual({
        kind: 'engine-model',
        model: engineWorkerChoice(worker({ model, adapter })),
      });
    }
  });

  it('refuses a model or adapter it cannot find, saying what it accepts', () => {
    expect(() => engineWorkerChoice(worker({ model: './local/dir' }))).toThrow(
      /neither 'demo' \(the demo Conductor\), a Hub repo id \(owner\/name\) nor the URL/,
    );
    expect(() => engineWorkerChoice(worker({ model: 'demo', adapter: 'my adapter' }))).toThrow(/adapter 'my adapter', which is neither trained:<name>/);
  });

  it("round-trips the Conductor page's choices through a worker's fields, and has none for picked files", () => {
    const choices: EngineModelChoice[] = [
      DEMO_ENGINE_MODEL,
      { source: { from: 'hub', repo: 'a/b' }, weights: 'int4', adapter: { from: 'trained', name: 'run 1' } },
      { source: { from: 'url', url: 'https://example.org/model' }, weights: 'auto', adapter: { from: 'url', url: 'https://example.org/lora/' } },
    ];
    for (const choice of choices) expect(engineWorkerChoice({ id: 'w', provider: 'engine', ...engineWorkerFields(choice)! })).toEqual(choice);
    expect(engineWorkerFields({ source: { from: 'picked', name: 'x' }, weights: 'f32' })).toBeUndefined();
    expect(engineWorkerFields({ source: { from: 'hub', repo: 'a/b' }, weights: 'f32', adapter: { from: 'picked', name: 'y' } })).toBeUndefined();
  });
});
