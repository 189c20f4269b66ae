/**
 * The tab's own Conductors in the evaluator worker, where Node can check them (the model runs are checked in
 * Chromium by test/e2e/evaluate-conductor.test.ts): which engine choices the tab can load, the load's phase
 * line, a load that fails for want of WebGPU (as in Node) and is tried again, and Conductor calls taking turns.
 */
import { describe, expect, it } from 'vitest';
import { parseConductorSpec, type MethodRun } from '../../../../src/core/bench/index.ts';
import type { Conductor } from '../../../../src/core/orchestra/index.ts';
import { ConductorRuntimes, type ConductorLoadStatus } from '../../../../src/services/conductor/index.ts';
import { engineChoiceOf, inTurns, loadPhase, oneAtATime, tabConductor, type TabConductorSpec } from '../../../../src/services/evaluator/tab-conductor.ts';

const engineSpec = (text: string) => parseConductorSpec(text) as Extract<TabConductorSpec, { kind: 'engine' }>;

describe('engineChoiceOf', () => {
  it('reads the demo, a Hub repo (or its page) and a URL, with adapters trained here or elsewhere', () => {
    expect(engineChoiceOf(engineSpec('engine:demo'), 'm')).toEqual({ source: { from: 'demo' }, weights: 'f32' });
    expect(engineChoiceOf(engineSpec('engine:https://huggingface.co/Qwen/Qwen3-0.6B,lora=trained:run-2'), 'm')).toEqual({
      source: { from: 'hub', repo: 'Qwen/Qwen3-0.6B' },
      weights: 'auto',
      adapter: { from: 'trained', name: 'run-2' },
    });
    expect(engineChoiceOf(engineSpec('engine:http://127.0.0.1:9000/m/,lora=http://127.0.0.1:9000/a/,weights=f16'), 'm')).toMatchObject({
      source: { from: 'url', url: 'http://127.0.0.1:9000/m/' },
      weights: 'f16',
      adapter: { from: 'url', url: 'http://127.0.0.1:9000/a/' },
    });
  });

  it('names what the tab cannot load, and says where it can run', () => {
    expect(() => engineChoiceOf(engineSpec('engine:./runs/model'), 'conductor:engine:./runs/model')).toThrow(
      /^Method "conductor:engine:\.\/runs\/model": the model "\.\/runs\/model" is neither a Hub repo nor a URL\. .*a model directory is for baton eval\.$/,
    );
    expect(() => engineChoiceOf(engineSpec('engine:demo,lora=trained:'), 'x')).toThrow(/the adapter "trained:" is neither a Hub repo nor a URL/);
    expect(() => engineChoiceOf(engineSpec('engine:demo,max-tokens=64'), 'x')).toThrow(/max-tokens is for baton eval/);
  });
});

it("says how far a load is: the engine's download and tensors, web-llm's shaders", () => {
  const status = (progress?: ConductorLoadStatus['progress']): ConductorLoadStatus => ({ runtime: 'engine', model: 'demo-conductor', state: 'loading', ...(progress ? { progress } : {}) });
  expect(loadPhase(status())).toBe('Loading demo-conductor');
  expect(loadPhase(status({ phase: 'download', unit: 'bytes', loaded: 3 * 2 ** 19, total: 2 ** 21 }))).toBe('Loading demo-conductor: downloading, 1.5 of 2.0 MB');
  expect(loadPhase(status({ phase: 'download', unit: 'bytes', loaded: 2 ** 20 }))).toBe('Loading demo-conductor: downloading, 1.0 MB');
  expect(loadPhase(status({ phase: 'gpu', unit: 'items', loaded: 7, total: 20 }))).toBe('Loading demo-conductor: copying to the GPU, 7 of 20 tensors');
  expect(loadPhase(status({ phase: 'shaders', unit: 'items', loaded: 2, total: 9 }))).toBe('Loading demo-conductor: compiling GPU shaders, 2 of 9 shaders');
});

it('fails a web-llm load without WebGPU with the reason, reports it, and loads again when asked again', async () => {
  const seen: ConductorLoadStatus[] = [];
  const runtimes = new ConductorRuntimes();
  runtimes.watch((s) => seen.push(s));
  const tab = tabConductor({ kind: 'webllm', model: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC' }, 'conductor:webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC', { workers: 4, maxSteps: 3, runtimes });
  await expect(tab.load()).rejects.toMatchObject({ code: 'engine/no-adapter', message: expect.stringMatching(/^This browser offers no WebGPU here/) });
  expect(seen.map((s) => s.state)).toEqual(['loading', 'failed']);
  await expect(tab.conductor({} as MethodRun)).rejects.toMatchObject({ code: 'engine/no-adapter' });
  expect(seen.map((s) => s.state)).toEqual(['loading', 'failed', 'loading', 'failed']);
  await tab.close();
});

it("takes a method's Conductor calls one at a time, in the order made", async () => {
  let running = 0;
  let most = 0;
  const order: string[] = [];
  const slow: Conductor = {
    info: { runtime: 'engine', model: 'slow' },
    async generate(req) {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      order.push(String(req.messages[0].content));
      if (req.messages[0].content === 'b') throw new Error('b failed');
      return { text: String(req.messages[0].content) };
    },
  };
  const turn = oneAtATime();
  const [a, b, c] = [inTurns(slow, turn), inTurns(slow, turn), inTurns(slow, turn)];
  const results = await Promise.allSettled(['a', 'b', 'c'].map((q, i) => [a, b, c][i].generate({ messages: [{ role: 'user', content: q }] })));
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(order).toEqual(['a', 'b', 'c']);
  expect(most).toBe(1);
});
