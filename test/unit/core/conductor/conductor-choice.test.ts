/**
 * The Conductor choice's words and the Hub repo ids the Conductor page accepts: 'owner/name' or the repo
 * page's address pasted from a browser, and nothing the engine would read wrongly (a file's address,
 * another revision, a name the Hub refuses). The Hub addresses built from an id are checked end to end
 * in test/e2e/engine-loads.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { describeConductor, hubRepoId } from '../../../../src/core/conductor/index.ts';
import { hubUrl } from '../../../../src/engine/model/index.ts';

describe('hubRepoId', () => {
  it('takes owner/name, trimmed, and a pasted repo page address', () => {
    expect(hubRepoId('Qwen/Qwen2.5-0.5B-Instruct')).toBe('Qwen/Qwen2.5-0.5B-Instruct');
    expect(hubRepoId('  meta-llama/Llama-3.2-1B_x.v2 ')).toBe('meta-llama/Llama-3.2-1B_x.v2');
    expect(hubRepoId('https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/')).toBe('Qwen/Qwen2.5-0.5B-Instruct');
    expect(hubRepoId('https://www.huggingface.co/a/b')).toBe('a/b');
    expect(hubRepoId('https://hf.co/a/b')).toBe('a/b');
  });

  it('refuses what is not a repo, so no wrong address is ever built', () => {
    for (const text of [
      '',
      'Qwen',
      'a/b/c',
      '/a/b',
      'a//b',
      '-a/b',
      'a/.b',
      'a b/c',
      'http://huggingface.co/a/b',
      'https://example.com/a/b',
      'https://huggingface.co/Qwen/Q/tree/main',
      'https://huggingface.co/Qwen/Q/resolve/main/config.json',
      'https://huggingface.co/datasets/a',
    ]) {
      expect(hubRepoId(text), text).toBeUndefined();
    }
  });

  it('gives the id from which the engine reads the main branch', () => {
    expect(hubUrl(hubRepoId('https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct')!)).toBe('https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/resolve/main/');
  });
});

describe('describeConductor', () => {
  it('names an engine model, its adapter, and a lists-only choice', () => {
    const model = { source: { from: 'hub', repo: 'a/b' }, weights: 'int4', adapter: { from: 'picked', name: 'lora' } } as const;
    expect(describeConductor({ kind: 'engine-model', model })).toBe("a/b on Baton's engine + lora");
    expect(describeConductor({ kind: 'engine-model', model: { ...model, reasoning: false } })).toBe("a/b on Baton's engine + lora, lists only");
    const trained = { source: { from: 'demo' }, weights: 'f32', adapter: { from: 'trained', name: 'train-1' }, reasoning: false, prompt: 'compact' } as const;
    expect(describeConductor({ kind: 'engine-model', model: trained })).toBe(
      "demo-conductor (tiny, trained on the demo pool) on Baton's engine + train-1 (trained in this browser), lists only, short prompt",
    );
    const names = (id: string) => (id === 'w1' ? 'Claude Sonnet' : undefined);
    expect(describeConductor({ kind: 'pool-worker', workerId: 'w1' }, names)).toBe('pool worker Claude Sonnet, prompted');
    expect(describeConductor({ kind: 'pool-worker', workerId: 'gone' }, names)).toBe('pool worker gone (no longer in the pool)');
  });

  it("names the CLI's choices: a model directory with its token cap, a plan file", () => {
    const model = { source: { from: 'dir', path: 'runs/model' }, weights: 'auto', adapter: { from: 'dir', path: 'runs/lora' }, maxTokens: 64 } as const;
    expect(describeConductor({ kind: 'engine-model', model })).toBe("runs/model on Baton's engine + runs/lora, at most 64 tokens");
    expect(describeConductor({ kind: 'fixed-plan', file: 'plan.txt' })).toBe('the plan in plan.txt');
  });
});
