import { describe, expect, it } from 'vitest';
import { createWorkerConductor } from '../../../../src/core/orchestra/index.ts';
import type { CallRequest, WorkerModel } from '../../../../src/core/providers/types.ts';

/** A worker that records what it is sent and answers a fixed text: enough to see what the Conductor forwards. */
function recordingWorker(supportsPrefill: boolean): WorkerModel & { sent: CallRequest[] } {
  const sent: CallRequest[] = [];
  return {
    sent,
    supportsPrefill,
    spec: { id: 'w', provider: 'openai-compatible', model: 'some-model', temperature: 0.3, price: { input: 2, output: 8 } },
    async call(req) {
      sent.push(req);
      req.onDelta?.('model_id = [0]');
      return { text: 'model_id = [0]', usage: { input: 1, output: 1 }, latencyMs: 0, attempts: 1 };
    },
  };
}

const prompt = [
  { role: 'system' as const, content: 'sys' },
  { role: 'user' as const, content: 'plan' },
  { role: 'assistant' as const, content: 'Let me think.' },
];

describe('createWorkerConductor', () => {
  it('sends the prompt with its prefill and streams the completion back', async () => {
    const worker = recordingWorker(true);
    const deltas: string[] = [];
    const out = await createWorkerConductor(worker).generate({ messages: prompt, onDelta: (t) => deltas.push(t) });
    // The Conductor's own call is billed like any worker's: 1 input and 1 output token at $2 and $8 per million.
    expect(out).toEqual({ text: 'model_id = [0]', usage: { input: 1, output: 1 }, costUsd: 10e-6 });
    expect(deltas).toEqual(['model_id = [0]']);
    expect(worker.sent[0]).toMatchObject({ messages: prompt, maxTokens: 1024, temperature: 0.3 });
  });

  it('drops the prefill for a worker that cannot continue one', async () => {
    const worker = recordingWorker(false);
    const conductor = createWorkerConductor(worker, { maxTokens: 256 });
    await conductor.generate({ messages: prompt });
    expect(worker.sent[0].messages).toEqual(prompt.slice(0, 2));
    expect(conductor.info).toEqual({ runtime: 'worker', model: 'some-model', sampling: { temperature: 0.3, maxNewTokens: 256 } });
  });
});
