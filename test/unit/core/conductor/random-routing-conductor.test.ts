import { describe, expect, test } from 'vitest';
import { createRandomRoutingConductor, sampleRouting } from '../../../../src/core/conductor/random-routing-conductor.ts';
import { seededRandom } from '../../../../src/core/random.ts';
import { parseWorkflow } from '../../../../src/core/workflow/index.ts';

const USER = { role: 'user' as const, content: 'question' };

describe('random-routing demo Conductor', () => {
  test('every completion parses to a valid workflow over the pool, in both access modes', async () => {
    for (const access of ['binary', 'positional'] as const) {
      for (let seed = 1; seed <= 40; seed++) {
        const conductor = createRandomRoutingConductor({ workers: 3, maxSteps: 5, access, random: seededRandom(seed), wordDelayMs: 0 });
        const { text } = await conductor.generate({ messages: [USER] });
        const parsed = parseWorkflow(text, { workers: 3, maxSteps: 5, access });
        expect(parsed, text).toMatchObject({ ok: true });
      }
    }
  });

  test('it streams exactly its completion and says it routes at random', async () => {
    const conductor = createRandomRoutingConductor({ workers: 2, maxSteps: 5, random: seededRandom(7), wordDelayMs: 0 });
    let streamed = '';
    const { text } = await conductor.generate({ messages: [USER], onDelta: (d) => (streamed += d) });
    expect(streamed).toBe(text);
    expect(text).toMatch(/do not read the question, I route at random/);
    expect(conductor.info).toEqual({ runtime: 'demo', model: 'untrained demo Conductor (random routing)' });
  });

  test('maxSteps 1 leaves only one-step shapes; binary mode never writes index lists', () => {
    for (let seed = 1; seed <= 30; seed++) {
      expect(sampleRouting({ workers: 4, maxSteps: 1, random: seededRandom(seed) }, false).workflow.steps).toHaveLength(1);
      const binary = sampleRouting({ workers: 4, maxSteps: 5, access: 'binary', random: seededRandom(seed) }, false).workflow;
      for (const step of binary.steps) expect(step.access === 'all' || step.access.length === 0).toBe(true);
    }
  });

  test('in a recursion round it sometimes keeps the answer (three empty lists, valid with recursion on)', async () => {
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const conductor = createRandomRoutingConductor({ workers: 2, maxSteps: 5, random: seededRandom(seed), wordDelayMs: 0 });
      const { text } = await conductor.generate({ messages: [USER, { role: 'assistant', content: 'a' }, USER] });
      const parsed = parseWorkflow(text, { workers: 2, recursion: true });
      expect(parsed.ok).toBe(true);
      kinds.add(parsed.ok && parsed.keep ? 'keep' : 'new');
    }
    expect(kinds).toEqual(new Set(['keep', 'new']));
  });

  test('stopping mid-stream rejects with run/aborted', async () => {
    const conductor = createRandomRoutingConductor({ workers: 2, maxSteps: 5, wordDelayMs: 5 });
    const controller = new AbortController();
    const done = conductor.generate({ messages: [USER], signal: controller.signal, onDelta: () => controller.abort() });
    await expect(done).rejects.toMatchObject({ code: 'run/aborted' });
  });

  test('an empty pool is a config error that says what to do', () => {
    expect(() => createRandomRoutingConductor({ workers: 0, maxSteps: 5 })).toThrow(/add at least one worker/);
  });
});
