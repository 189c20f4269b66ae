/**
 * The tab's host for createConductor, where Node can check it (the model runs are checked in Chromium by
 * test/e2e/evaluate-conductor.test.ts and test/e2e/engine-conductor.test.ts): a model directory refused with
 * where it can run, a plan file the Evaluate page did not pick named, an engine or web-llm load that fails for want of
 * WebGPU (as in Node) said in the words each page wants, reported and tried again.
 */
import { describe, expect, it, vi } from 'vitest';
import { conductorMaker, parseConductorChoice, type ConductorSettings } from '../../../../src/core/conductor/index.ts';
import { ModelRuntimes, tabConductorHost, type ConductorLoadStatus } from '../../../../src/services/runtimes/index.ts';

const settings = (method: string): ConductorSettings => ({ poolIds: ['w'], maxSteps: 3, access: 'binary', where: `Method "${method}"` });
const noRemote = () => Promise.reject(new Error('no remote here'));
const methodOn = (host: ReturnType<typeof tabConductorHost>, text: string) =>
  conductorMaker(parseConductorChoice(text, 'web'), host, settings(`conductor:${text}`));

describe('what the tab cannot run', () => {
  const host = tabConductorHost(new ModelRuntimes(), { remoteWorker: noRemote });

  it('names a model directory, and says where it can run', async () => {
    await expect(methodOn(host, 'engine:./runs/model')).rejects.toThrow(
      /^Method "conductor:engine:\.\/runs\/model": the model "\.\/runs\/model" is neither a Hub repo nor a URL\. .*a model directory is for baton eval\.$/,
    );
    await expect(methodOn(host, 'engine:demo,lora=trained:')).rejects.toThrow(/the adapter "trained:" is neither a Hub repo nor a URL/);
  });

  it('names a plan file that was not picked', async () => {
    await expect(methodOn(host, 'fixed:other.txt')).rejects.toThrow('Method "conductor:fixed:other.txt": pick the plan file other.txt under Methods first.');
    const picked = tabConductorHost(new ModelRuntimes(), { remoteWorker: noRemote, plans: { 'p.txt': 'the plan' } });
    await expect(methodOn(picked, 'fixed:p.txt')).resolves.toBeDefined();
  });
});

it('fails a web-llm load without WebGPU with the reason, reports it, and loads again when asked again', async () => {
  const seen: ConductorLoadStatus[] = [];
  const runtimes = new ModelRuntimes();
  runtimes.watch((s) => seen.push(s));
  const maker = await methodOn(tabConductorHost(runtimes, { remoteWorker: noRemote }), 'webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
  await expect(maker.load()).rejects.toMatchObject({ code: 'engine/no-adapter', message: expect.stringMatching(/^This browser offers no WebGPU here/) });
  expect(seen.map((s) => s.state)).toEqual(['loading', 'failed']);
  await expect(maker.conductor({ task: { question: 'q', kind: 'number' }, pool: [] })).rejects.toMatchObject({ code: 'engine/no-adapter' });
  expect(seen.map((s) => s.state)).toEqual(['loading', 'failed', 'loading', 'failed']);
});

it("says why the engine cannot run here: in the browser's words for the Evaluate page, with what to choose instead for Ask", async () => {
  vi.stubGlobal('navigator', {}); // a browser without WebGPU
  const evaluate = await methodOn(tabConductorHost(new ModelRuntimes(), { remoteWorker: noRemote, browserGpuReason: true }), 'engine:demo');
  await expect(evaluate.load()).rejects.toMatchObject({ code: 'engine/no-adapter', message: expect.stringMatching(/^This browser offers no WebGPU here/) });
  const ask = await methodOn(tabConductorHost(new ModelRuntimes(), { remoteWorker: noRemote }), 'engine:a/b');
  await expect(ask.load()).rejects.toMatchObject({
    code: 'engine/no-adapter',
    message: expect.stringMatching(/choose random routing, a pool worker or a remote endpoint as Conductor/),
  });
  vi.unstubAllGlobals();
});
