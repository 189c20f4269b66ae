// The store and the key store find IndexedDB (and idb its request classes) as globals, as in a worker.
import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { AskService } from '../../../../src/services/conductor/ask-service.ts';
import { slotsNeeded, type AskRequest } from '../../../../src/services/conductor/api.ts';
import { episodeStore } from '../../../../src/core/episodes/browser-store.ts';
import type { RunEvent } from '../../../../src/core/orchestra/index.ts';
import { DEMO_POOL } from '../../../../src/core/providers/simulated/demo-pool.ts';

// Fast simulated workers: same behaviour as the demo pool, no waiting.
const pool = DEMO_POOL.map((w) => ({ ...w, simulated: { ...w.simulated!, latencyMs: 0 } }));
const request: AskRequest = {
  task: { question: 'What is 6 x 7?', answer: '42', kind: 'number' },
  pool,
  conductor: { kind: 'random-routing' },
  options: { maxSteps: 5, access: 'positional', recursionDepth: 0, budgetUsd: 1, stepTimeoutMs: 10_000 },
  keys: {},
};

/** The demo pool with every worker always right (skill 1) or always wrong (skill 0), so the reward is known. */
const poolOfSkill = (skill: 0 | 1) =>
  pool.map((w) => ({ ...w, simulated: { ...w.simulated!, skill: { default: skill }, confirmRight: skill, fixWrong: skill } }));

test('a demo question runs end to end, streams its events and is stored', async () => {
  const events: RunEvent[] = [];
  const episode = await new AskService().ask({ ...request, pool: poolOfSkill(1) }, (e) => events.push(e));
  expect(episode.status).toBe('ok');
  expect(episode.conductor.runtime).toBe('demo');
  expect(episode.reward).toEqual({ value: 1, correct: true, format: true, details: { extracted: '42', gold: '42' } });
  expect(episode.steps.length).toBe(episode.workflow!.steps.length);
  const types = new Set(events.map((e) => e.type));
  for (const t of ['conductor-delta', 'conductor-done', 'step-started', 'step-done', 'run-done']) expect(types).toContain(t);
  expect(await (await episodeStore()).get(episode.id)).toEqual(episode);
});

test('a wrong answer to a demo question earns the format credit of 0.5, not 0', async () => {
  const episode = await new AskService().ask({ ...request, pool: poolOfSkill(0) }, () => {});
  expect(episode.status).toBe('ok');
  expect(episode.reward).toEqual({ value: 0.5, correct: false, format: true, details: { extracted: expect.not.stringMatching(/^42$/), gold: '42' } });
});

test('with one recursion round, the second round is recorded: kept, or a workflow that ran', async () => {
  const episode = await new AskService().ask({ ...request, options: { ...request.options, recursionDepth: 1 } }, () => {});
  expect(episode.status).toBe('ok');
  expect(episode.rounds).toHaveLength(1);
  const round = episode.rounds[0];
  if (round.kept) expect(round.steps).toEqual([]);
  else expect(round.steps.length).toBe(round.workflow!.steps.length);
});

test('a Conductor that cannot be made fails the run as its own failed call does: stored, with the question and why', async () => {
  const events: RunEvent[] = [];
  const conversation = { id: 'c1', turn: 0 };
  const missing: AskRequest = { ...request, conductor: { kind: 'pool-worker', workerId: 'gone' }, episodeId: 'e-missing', conversation };
  const episode = await new AskService().ask(missing, (e) => events.push(e));
  expect(episode).toMatchObject({ id: 'e-missing', status: 'infra-error', conversation, task: request.task, final: '', steps: [] });
  expect(episode.conductor).toEqual({ runtime: 'worker', model: 'pool worker gone, prompted' });
  expect(episode.error?.code).toBe('run/config');
  expect(episode.error?.message).toMatch(/^The Conductor failed: The Conductor page's choice: no worker "gone" in the pool/);
  // The page hears it as it hears a Conductor call that failed, and the turn is stored.
  expect(events.filter((e) => e.type === 'conductor-failed')).toEqual([{ type: 'conductor-failed', round: 0, error: episode.error }]);
  expect(await (await episodeStore()).get('e-missing')).toEqual(episode);
});

test('stop() ends the run in progress with status aborted', async () => {
  const service = new AskService();
  const slow: AskRequest = { ...request, pool: DEMO_POOL.map((w) => ({ ...w })) };
  const running = service.ask(slow, (e) => {
    if (e.type === 'step-started') service.stop();
  });
  expect((await running).status).toBe('aborted');
});

test('only the key slots the pool and a remote Conductor use are unlocked', () => {
  const slots = slotsNeeded({
    pool: [...pool, { id: 'g', provider: 'openai', model: 'gpt-5' }, { id: 'g2', provider: 'openai', model: 'gpt-5-mini' }],
    conductor: { kind: 'remote-endpoint', baseUrl: 'http://localhost:8000/v1', model: 'c' },
  });
  expect(slots).toEqual(['openai@https://api.openai.com', 'openai-compatible@http://localhost:8000']);
});
