/**
 * A local pool worker's wrapper around its runtime (createLocalWorker): the request it hands on, price 0, the
 * step's timeout and the user's stop told apart, the runtime's own errors passed through, an empty answer
 * reported. The runtime here is a small one written for the test that honours its signal as the engine's does
 * (the engine's own is tested on Dawn in test/engine/services/runtimes/tab-local-models.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../../src/core/errors/index.ts';
import { createWorkerModel } from '../../../../../src/core/providers/create-worker.ts';
import type { LocalChatRequest, LocalModels } from '../../../../../src/core/providers/index.ts';

/** Streams `text` a character every `ms`, stopping with 'run/aborted' when its signal fires. */
function slowRuntime(text: string, ms: number, seen: LocalChatRequest[] = []): LocalModels {
  return {
    async chat(_spec, req) {
      seen.push(req);
      for (const ch of text) {
        await new Promise((r) => setTimeout(r, ms));
        if (req.signal.aborted) throw new BatonError({ code: 'run/aborted', message: 'Generation stopped.' });
        req.onDelta?.(ch);
      }
      return { text, usage: { input: 7, output: text.length }, finishReason: 'stop' };
    },
  };
}

const spec = { id: 'tiny', provider: 'engine' as const, model: 'demo', temperature: 0 };

describe('createLocalWorker', () => {
  it("hands the runtime the messages and the step's settings, streams, and costs nothing", async () => {
    const seen: LocalChatRequest[] = [];
    const worker = createWorkerModel({ ...spec, maxTokens: 9 }, { local: slowRuntime('five', 1, seen) });
    let streamed = '';
    const out = await worker.call({ messages: [{ role: 'user', content: 'Add 2 and 3.' }], onDelta: (d) => (streamed += d) });
    expect(out).toMatchObject({ text: 'five', usage: { input: 7, output: 4 }, attempts: 1, finishReason: 'stop' });
    expect(streamed).toBe('five');
    expect(seen[0]).toMatchObject({ messages: [{ role: 'user', content: 'Add 2 and 3.' }], maxTokens: 9, temperature: 0 });
    expect(worker.spec.price).toEqual({ input: 0, output: 0 });
    expect(worker.supportsPrefill).toBe(true);
  });

  it("reports the step's timeout as a timeout and the user's stop as a stop", async () => {
    const worker = createWorkerModel(spec, { local: slowRuntime('a long answer', 20) });
    await expect(worker.call({ messages: [{ role: 'user', content: 'Q' }], timeoutMs: 50 })).rejects.toMatchObject({
      code: 'provider/timeout',
      message: expect.stringMatching(/^Baton's engine model 'demo' did not answer within 50 ms/),
    });
    const stop = new AbortController();
    const call = worker.call({ messages: [{ role: 'user', content: 'Q' }], signal: stop.signal });
    setTimeout(() => stop.abort(), 30);
    await expect(call).rejects.toMatchObject({ code: 'run/aborted' });
  });

  it("passes the runtime's own errors through, and calls an empty answer one", async () => {
    const outOfMemory = new BatonError({ code: 'engine/out-of-memory', message: 'The GPU ran out of memory loading demo.' });
    const failing = createWorkerModel(spec, { local: { chat: () => Promise.reject(outOfMemory) } });
    await expect(failing.call({ messages: [{ role: 'user', content: 'Q' }] })).rejects.toBe(outOfMemory);
    const silent = createWorkerModel(spec, { local: slowRuntime(' ', 1) });
    await expect(silent.call({ messages: [{ role: 'user', content: 'Q' }] })).rejects.toMatchObject({ code: 'provider/empty-answer' });
  });
});
