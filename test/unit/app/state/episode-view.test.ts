import { expect, test } from 'vitest';
import { applyRunEvent, emptyRunView, episodeView, runTotals } from '../../../../src/app/state/run-view.ts';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { createFixedConductor, runEpisode, type Conductor } from '../../../../src/core/orchestra/index.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import { renderWorkflow } from '../../../../src/core/workflow/index.ts';

const sim = (id: string) =>
  createSimulatedWorker({
    id,
    provider: 'simulated',
    model: id,
    price: { input: 1, output: 2 },
    simulated: { skill: { default: 1 }, confirmRight: 1, fixWrong: 1 },
  });

test('a stored turn shows as its run did live: the plan, each step ended, the totals and the answer', async () => {
  const live = emptyRunView();
  const workflow = {
    steps: [
      { worker: 0, subtask: 'Solve it.', access: [] as number[] },
      { worker: 1, subtask: 'Check it.', access: 'all' as const },
    ],
  };
  const episode = await runEpisode({
    task: { question: 'What is 6 * 7?', answer: '42', kind: 'number' },
    pool: [sim('a'), sim('b')],
    conductor: createFixedConductor(`Two steps.\n${renderWorkflow(workflow)}`),
    onEvent: (e) => applyRunEvent(live, e),
  });
  const stored = episodeView(episode);
  expect(stored.episode).toBe(episode);
  expect(stored.rounds).toHaveLength(1);
  const [round] = stored.rounds;
  expect(round).toMatchObject({ conductorText: live.rounds[0].conductorText, conductorDone: true, workflow });
  expect(round.steps.map((s) => [s.status, s.output, s.messages])).toEqual(live.rounds[0].steps.map((s) => [s.status, s.output, s.messages]));
  expect(runTotals(stored)).toEqual(runTotals(live));
});

test("a turn whose Conductor failed shows the Conductor's error where the plan would be", () => {
  const error = { code: 'provider/server', message: 'The Conductor failed: down' };
  const view = episodeView({
    id: 'x',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    task: { question: 'Q', kind: 'open' },
    pool: [],
    conductor: { runtime: 'remote', model: 'm' },
    prompt: [],
    completion: { text: '' },
    steps: [],
    rounds: [],
    final: '',
    tags: [],
    totals: { usage: { input: 0, output: 0 }, costUsd: 0, latencyMs: 5 },
    error,
    status: 'infra-error',
  });
  expect(view.rounds[0]).toMatchObject({ conductorDone: true, error, steps: [] });
});

test("a turn whose Conductor failed in a later round shows that round's error when reopened, as it did live", async () => {
  const plan = createFixedConductor(`One step.\n${renderWorkflow({ steps: [{ worker: 0, subtask: 'Solve it.', access: [] }] })}`);
  let calls = 0;
  const conductor: Conductor = {
    info: plan.info,
    generate: (req) => (calls++ === 0 ? plan.generate(req) : Promise.reject(new BatonError({ code: 'provider/server', message: 'down (500).' }))),
  };
  const live = emptyRunView();
  const episode = await runEpisode({
    task: { question: 'What is 6 * 7?', answer: '42', kind: 'number' },
    pool: [sim('a')],
    conductor,
    options: { recursionDepth: 1 },
    onEvent: (e) => applyRunEvent(live, e),
  });
  expect(episode.status).toBe('infra-error');
  const error = { code: 'provider/server', message: 'The Conductor failed: down (500).' };
  expect(live.rounds.map((r) => r.error)).toEqual([undefined, error]);
  const stored = episodeView(episode);
  expect(stored.rounds.map((r) => [r.error, !!r.workflow])).toEqual([
    [undefined, true],
    [error, false],
  ]);
  expect(stored.rounds[1]).toMatchObject({ conductorText: '', conductorDone: true, steps: [] });
});
