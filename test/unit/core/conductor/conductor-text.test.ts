/**
 * The Conductor choice's text form, one parser for the CLI and the Evaluate page: every choice read, model names
 * read as the host reads them (directories under Node; demo, a Hub repo or a URL in a tab, anything else a
 * directory), the form to write for a malformed choice, and the text written back for each choice.
 */
import { describe, expect, it } from 'vitest';
import { conductorChoiceText, DEMO_ENGINE_MODEL, parseConductorChoice, type ConductorChoice } from '../../../../src/core/conductor/index.ts';

describe('parseConductorChoice', () => {
  it('reads every choice with a text form', () => {
    expect(parseConductorChoice('fixed:plan.txt', 'dir')).toEqual({ kind: 'fixed-plan', file: 'plan.txt' });
    expect(parseConductorChoice('worker:claude', 'dir')).toEqual({ kind: 'pool-worker', workerId: 'claude' });
    expect(parseConductorChoice('remote:my-conductor@http://localhost:8000/v1', 'web')).toEqual({
      kind: 'remote-endpoint',
      model: 'my-conductor',
      baseUrl: 'http://localhost:8000/v1',
    });
    expect(parseConductorChoice('webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC', 'web')).toEqual({
      kind: 'webllm-model',
      modelId: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC',
    });
  });

  it('reads an engine model and its adapter as directories under Node', () => {
    const engine = (text: string) => parseConductorChoice(text, 'dir');
    expect(engine('engine:models/tiny')).toEqual({ kind: 'engine-model', model: { source: { from: 'dir', path: 'models/tiny' }, weights: 'auto' } });
    expect(engine('engine:m,max-tokens=64,lora=runs/a/adapter')).toEqual({
      kind: 'engine-model',
      model: { source: { from: 'dir', path: 'm' }, weights: 'auto', adapter: { from: 'dir', path: 'runs/a/adapter' }, maxTokens: 64 },
    });
    expect(engine('engine:demo,weights=int4,reasoning=off,prompt=compact')).toEqual({
      kind: 'engine-model',
      model: { source: { from: 'dir', path: 'demo' }, weights: 'int4', reasoning: false, prompt: 'compact' },
    });
  });

  it('reads the demo, a Hub repo (or its page) and a URL in a tab, with adapters trained there or elsewhere, and any other name as a directory', () => {
    const model = (text: string) => {
      const choice = parseConductorChoice(text, 'web');
      if (choice.kind !== 'engine-model') throw new Error(text);
      return choice.model;
    };
    expect(model('engine:demo')).toEqual(DEMO_ENGINE_MODEL);
    expect(model('engine:https://huggingface.co/Qwen/Qwen3-0.6B,lora=trained:run-2')).toEqual({
      source: { from: 'hub', repo: 'Qwen/Qwen3-0.6B' },
      weights: 'auto',
      adapter: { from: 'trained', name: 'run-2' },
    });
    expect(model('engine:http://127.0.0.1:9000/m/,lora=http://127.0.0.1:9000/a/,weights=f16')).toEqual({
      source: { from: 'url', url: 'http://127.0.0.1:9000/m/' },
      weights: 'f16',
      adapter: { from: 'url', url: 'http://127.0.0.1:9000/a/' },
    });
    expect(model('engine:./runs/model,lora=trained:')).toEqual({
      source: { from: 'dir', path: './runs/model' },
      weights: 'auto',
      adapter: { from: 'dir', path: 'trained:' },
    });
  });

  it('refuses incomplete choices with the form to write', () => {
    expect(() => parseConductorChoice('fixed:', 'dir')).toThrow(/fixed:<file>/);
    expect(() => parseConductorChoice('webllm:', 'web')).toThrow(/A Conductor must be/);
    expect(() => parseConductorChoice('nonsense', 'web')).toThrow(/A Conductor must be/);
    for (const bad of [
      'engine:dir,rank=4',
      'engine:dir,max-tokens=0',
      'engine:m,weights=f8',
      'engine:m,reasoning=on',
      'engine:m,prompt=long',
      'engine:,lora=a',
      'engine:m,lora=',
    ]) {
      expect(() => parseConductorChoice(bad, 'dir'), bad).toThrow(
        `Conductor "${bad}": write engine:<model>, then any of ,lora=<adapter> ,max-tokens=N ,weights=auto|f32|f16|int4 ,reasoning=off ,prompt=compact.`,
      );
    }
    expect(() => parseConductorChoice('remote:model', 'dir')).toThrow(/remote:<model>@<base URL>/);
    expect(() => parseConductorChoice('remote:@http://x', 'dir')).toThrow(/remote:<model>@<base URL>/);
  });
});

describe('conductorChoiceText', () => {
  it('writes what the parser reads back as the same choice', () => {
    const choices: [ConductorChoice, 'dir' | 'web'][] = [
      [{ kind: 'fixed-plan', file: 'plans/a.txt' }, 'dir'],
      [{ kind: 'pool-worker', workerId: 'gpt' }, 'web'],
      [{ kind: 'remote-endpoint', model: 'c', baseUrl: 'http://127.0.0.1:8000/v1' }, 'web'],
      [{ kind: 'webllm-model', modelId: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' }, 'web'],
      [
        { kind: 'engine-model', model: { ...DEMO_ENGINE_MODEL, adapter: { from: 'trained', name: 'train-1-step-3' }, reasoning: false, prompt: 'compact' } },
        'web',
      ],
      [
        {
          kind: 'engine-model',
          model: { source: { from: 'url', url: 'http://127.0.0.1:9000/q/' }, weights: 'int4', adapter: { from: 'hub', repo: 'me/lora' } },
        },
        'web',
      ],
      [
        { kind: 'engine-model', model: { source: { from: 'dir', path: 'runs/m' }, weights: 'f16', adapter: { from: 'dir', path: 'runs/a' }, maxTokens: 9 } },
        'dir',
      ],
    ];
    for (const [choice, naming] of choices) expect(parseConductorChoice(conductorChoiceText(choice)!, naming)).toEqual(choice);
    expect(conductorChoiceText({ kind: 'engine-model', model: DEMO_ENGINE_MODEL })).toBe('engine:demo');
  });

  it('has no text for the choices no text names: the demo where the GPU allows, random routing, picked files', () => {
    expect(conductorChoiceText({ kind: 'demo-auto' })).toBeUndefined();
    expect(conductorChoiceText({ kind: 'random-routing' })).toBeUndefined();
    expect(conductorChoiceText({ kind: 'engine-model', model: { source: { from: 'picked', name: 'm' }, weights: 'f32' } })).toBeUndefined();
    expect(conductorChoiceText({ kind: 'engine-model', model: { ...DEMO_ENGINE_MODEL, adapter: { from: 'picked', name: 'a' } } })).toBeUndefined();
  });
});
