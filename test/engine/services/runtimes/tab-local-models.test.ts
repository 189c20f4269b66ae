/**
 * Local pool workers in the Conductor's web worker, run here in Node on Dawn with the worker's own classes
 * (ModelRuntimes, EngineHost, the tab's host of createConductor) over a tiny random model served on 127.0.0.1: an engine
 * worker answers with what the engine generates greedily for its chat, a worker on the Conductor's model shares
 * its load (no second download, the same GpuModel), a worker on another model gets its own beside the
 * Conductor's (which a Conductor choosing that model then takes over), and the GPU queue keeps the Conductor and a worker from decoding at once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerModel } from '../../../../src/core/providers/create-worker.ts';
import type { ChatMessage, WorkerSpec } from '../../../../src/core/providers/index.ts';
import { buildConductorPrompt } from '../../../../src/core/workflow/index.ts';
import { ModelRuntimes, type ConductorLoadStatus } from '../../../../src/services/runtimes/model-runtimes.ts';
import { createConductor, type EngineModelChoice } from '../../../../src/core/conductor/index.ts';
import { EngineHost } from '../../../../src/services/runtimes/engine-host.ts';
import { tabConductorHost } from '../../../../src/services/runtimes/tab-conductor-host.ts';
import { TabLocalModels } from '../../../../src/services/runtimes/tab-local-models.ts';
import { GpuModel } from '../../../../src/engine/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { openModel } from '../../../../src/engine/model/index.ts';
import { loadTokenizer } from '../../../../src/engine/tokenizer/index.ts';
import { requestNodeAdapter } from '../../../../src/node/models/webgpu.ts';
import { writeTinyModel } from '../../../support/tiny-model.ts';
import { useTestDevice } from '../../../support/webgpu.ts';
import { serveWithRanges } from '../../browser/range-server.ts';

const MESSAGES: ChatMessage[] = [
  { role: 'user', content: 'Your assigned subtask: add 2 and 3.' },
  { role: 'assistant', content: 'Let me solve' },
];
const MAX_TOKENS = 12;

describe('local engine workers beside the Conductor', () => {
  const device = useTestDevice();
  let dir: string;
  let server: Server;
  let base: string;
  let requests = 0;
  let runtimes: ModelRuntimes;
  const choiceOf = (model: string): EngineModelChoice => ({ source: { from: 'url', url: `${base}/${model}/` }, weights: 'f32' });
  const workerSpec = (model: string): WorkerSpec => ({
    id: `w-${model}`,
    provider: 'engine',
    model: `${base}/${model}/`,
    weights: 'f32',
    temperature: 0,
    maxTokens: MAX_TOKENS,
  });
  const workerOn = (model: string) => createWorkerModel(workerSpec(model), { local: new TabLocalModels(runtimes) });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-local-workers-'));
    await writeTinyModel(join(dir, 'a'), { architecture: 'qwen2', dtype: 'F32', seed: 11, tokenizer: 'small', hidden: 32, heads: 4, kvHeads: 2 });
    await writeTinyModel(join(dir, 'b'), { architecture: 'qwen2', dtype: 'F32', seed: 12, tokenizer: 'small', hidden: 32, heads: 4, kvHeads: 2 });
    ({ url: base, server } = await serveWithRanges(dir));
    server.on('request', () => requests++);
    // The Conductor worker finds its GPU on navigator.gpu, as in a browser.
    const { gpu } = await requestNodeAdapter();
    Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true });
    runtimes = new ModelRuntimes(new EngineHost());
  });

  afterAll(async () => {
    const loaded = await runtimes.readyEngine(choiceOf('a')).catch(() => undefined);
    await runtimes.engine.keepWorkers([]);
    runtimes.engine.unload();
    loaded?.model.device.destroy();
    Reflect.deleteProperty(globalThis, 'navigator');
    server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers with the engine's greedy generation for the chat, streamed, its tokens counted, at no price", async () => {
    const files = filesFromDir(join(dir, 'a'));
    const tokenizer = await loadTokenizer(files);
    const model = await GpuModel.load(device(), await openModel(files), { weights: 'f32' });
    const prompt = tokenizer.encodeChat(MESSAGES, { continueFinal: true });
    const expected = await model.generate(prompt, {
      maxNewTokens: MAX_TOKENS,
      stopTokens: [...model.config.eosTokenIds, tokenizer.eosTokenId!],
      sampling: { temperature: 0 },
    });
    model.destroy();
    const body = expected.finishReason === 'stop' ? expected.tokens.slice(0, -1) : expected.tokens;
    const text = tokenizer.decode(body, { skipSpecialTokens: true });
    expect(text.trim()).not.toBe('');

    let streamed = '';
    const worker = workerOn('a');
    const out = await worker.call({ messages: MESSAGES, onDelta: (d) => (streamed += d) });
    expect(out.text).toBe(text);
    expect(streamed).toBe(text);
    expect(out.usage).toEqual({ input: prompt.length, output: expected.tokens.length });
    expect(worker.spec.price).toEqual({ input: 0, output: 0 });
  });

  it("runs on the Conductor's own load when it names the Conductor's model, and on its own beside it otherwise", async () => {
    const conductorModel = await runtimes.readyEngine(choiceOf('a'));
    const before = requests;
    const shared = await runtimes.readyEngineWorker(choiceOf('a'));
    expect(shared.model).toBe(conductorModel.model);
    expect(requests).toBe(before);

    const statuses: ConductorLoadStatus[] = [];
    runtimes.watch((status) => statuses.push(status));
    const own = await runtimes.readyEngineWorker(choiceOf('b'));
    // The page shows it as a pool worker's load, not the Conductor's.
    const ofB = statuses.filter((st) => st.model.endsWith('/b/'));
    expect(ofB.at(-1)?.state).toBe('ready');
    expect(ofB.map((st) => st.worker)).toEqual(ofB.map(() => true));
    expect(own.model).not.toBe(conductorModel.model);
    expect(requests).toBeGreaterThan(before);
    // Both stay loaded: the Conductor's model still generates, and the second worker call loads nothing.
    expect(runtimes.engine.isLoaded(choiceOf('a'))).toBe(true);
    await conductorModel.model.generate([1, 2, 3], { maxNewTokens: 2 });
    const after = requests;
    expect((await runtimes.readyEngineWorker(choiceOf('b'))).model).toBe(own.model);
    expect(requests).toBe(after);

    // A Conductor choosing the model a worker loaded takes that load over.
    expect((await runtimes.readyEngine(choiceOf('b'))).model).toBe(own.model);
    expect(requests).toBe(after);
    expect((await runtimes.readyEngineWorker(choiceOf('b'))).model).toBe(own.model);
    await runtimes.engine.keepWorkers([]);
  });

  it('never lets the Conductor and a worker decode at once: the worker waits for the Conductor to finish', async () => {
    const pool = [workerOn('a')];
    const conductor = await createConductor(
      // The short prompt: prefill on SwiftShader is slow.
      { kind: 'engine-model', model: { ...choiceOf('a'), reasoning: false, prompt: 'compact' } },
      tabConductorHost(runtimes, { remoteWorker: () => Promise.reject(new Error('no remote here')) }),
      { poolIds: [pool[0].spec.id], maxSteps: 1, access: 'binary', where: 'The Conductor' },
      { pool, task: { question: '2 + 3?', kind: 'number' } },
    );
    const events: string[] = [];
    const planning = conductor
      .generate({ messages: buildConductorPrompt({ question: '2 + 3?', workers: 1, maxSteps: 1 }), onDelta: () => events.push('conductor') })
      .then(() => events.push('conductor done'));
    const answering = pool[0].call({ messages: MESSAGES, onDelta: () => events.push('worker') }).then(() => events.push('worker done'));
    await Promise.all([planning, answering]);
    expect(events.filter((e) => e === 'conductor').length).toBeGreaterThan(1);
    expect(events.filter((e) => e === 'worker').length).toBeGreaterThan(0);
    expect(events.indexOf('worker')).toBeGreaterThan(events.indexOf('conductor done'));
  });
});
