import { describe, expect, it } from 'vitest';
import { parseConductorSpec, parseMethodSpec } from '../../../../../src/core/bench/index.ts';

describe('parseMethodSpec', () => {
  it('reads every method form', () => {
    expect(parseMethodSpec('single:gpt')).toEqual({ kind: 'single', worker: 'gpt' });
    expect(parseMethodSpec('oracle')).toEqual({ kind: 'oracle' });
    expect(parseMethodSpec('random')).toEqual({ kind: 'random' });
    expect(parseMethodSpec('round-robin')).toEqual({ kind: 'round-robin' });
    expect(parseMethodSpec('moa')).toEqual({ kind: 'moa', layers: 1 });
    expect(parseMethodSpec('moa:layers=3,aggregator=claude')).toEqual({ kind: 'moa', layers: 3, aggregator: 'claude' });
    expect(parseMethodSpec('self-reflect:gpt,5')).toEqual({ kind: 'self-reflect', worker: 'gpt', rounds: 5 });
    expect(parseMethodSpec('fixed:plans/a.txt')).toEqual({ kind: 'fixed', file: 'plans/a.txt' });
    expect(parseMethodSpec('conductor:worker:gpt')).toEqual({ kind: 'conductor', conductor: { kind: 'worker', id: 'gpt' } });
  });

  it('names what is wrong with a method', () => {
    expect(() => parseMethodSpec('single:')).toThrow(/A method must be/);
    expect(() => parseMethodSpec('oracle:x')).toThrow(/A method must be/);
    expect(() => parseMethodSpec('self-reflect:gpt')).toThrow(/A method must be/);
    expect(() => parseMethodSpec('self-reflect:gpt,0')).toThrow(/at least 1, got "0"/);
    expect(() => parseMethodSpec('moa:depth=2')).toThrow(/moa takes layers=L/);
    expect(() => parseMethodSpec('conductor:nonsense')).toThrow(/A Conductor must be/);
  });
});

describe('parseConductorSpec', () => {
  it('reads the four choices', () => {
    expect(parseConductorSpec('fixed:plan.txt')).toEqual({ kind: 'fixed', file: 'plan.txt' });
    expect(parseConductorSpec('worker:claude')).toEqual({ kind: 'worker', id: 'claude' });
    expect(parseConductorSpec('engine:models/tiny')).toEqual({ kind: 'engine', model: 'models/tiny' });
    expect(parseConductorSpec('engine:models/tiny,lora=runs/a/adapter')).toEqual({ kind: 'engine', model: 'models/tiny', lora: 'runs/a/adapter' });
    expect(parseConductorSpec('engine:m,max-tokens=64,lora=a')).toEqual({ kind: 'engine', model: 'm', lora: 'a', maxTokens: 64 });
    expect(parseConductorSpec('remote:my-conductor@http://localhost:8000/v1')).toEqual({ kind: 'remote', model: 'my-conductor', baseUrl: 'http://localhost:8000/v1' });
  });

  it("reads the Evaluate page's engine options and web-llm models", () => {
    expect(parseConductorSpec('engine:demo,lora=trained:run-1,reasoning=off,prompt=compact')).toEqual({
      kind: 'engine',
      model: 'demo',
      lora: 'trained:run-1',
      reasoning: false,
      prompt: 'compact',
    });
    expect(parseConductorSpec('engine:Qwen/Qwen2.5-0.5B-Instruct,weights=int4')).toEqual({ kind: 'engine', model: 'Qwen/Qwen2.5-0.5B-Instruct', weights: 'int4' });
    expect(parseConductorSpec('webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC')).toEqual({ kind: 'webllm', model: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' });
    for (const bad of ['engine:m,weights=f8', 'engine:m,reasoning=on', 'engine:m,prompt=long', 'engine:,lora=a', 'engine:m,lora=']) {
      expect(() => parseConductorSpec(bad)).toThrow(/weights=auto\|f32\|f16\|int4, ,reasoning=off, ,prompt=compact/);
    }
    expect(() => parseConductorSpec('webllm:')).toThrow(/A Conductor must be/);
  });

  it('refuses incomplete choices with the form to write', () => {
    expect(() => parseConductorSpec('fixed:')).toThrow(/fixed:<file>/);
    expect(() => parseConductorSpec('engine:dir,rank=4')).toThrow(/engine:<model dir>, with ,lora=<adapter dir>/);
    expect(() => parseConductorSpec('engine:dir,max-tokens=0')).toThrow(/max-tokens=N/);
    expect(() => parseConductorSpec('remote:model')).toThrow(/remote:<model>@<base URL>/);
    expect(() => parseConductorSpec('remote:@http://x')).toThrow(/remote:<model>@<base URL>/);
  });
});
