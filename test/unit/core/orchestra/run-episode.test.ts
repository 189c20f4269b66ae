import { describe, expect, it } from 'vitest';
import { validateEpisode, type Episode } from '../../../../src/core/episodes/index.ts';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { createFixedConductor, INTERRUPTED_ERROR, runEpisode, type RunEvent } from '../../../../src/core/orchestra/index.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import type { SimulatedBehaviour } from '../../../../src/core/providers/types.ts';
import type { Task } from '../../../../src/core/task.ts';
import { boundThread, buildConductorPrompt, renderWorkflow, threadBlock, type Workflow } from '../../../../src/core/workflow/index.ts';

const task: Task = { question: 'What is 6 * 7?', answer: '42', kind: 'number' };

function sim(id: string, behaviour: Partial<SimulatedBehaviour> = {}) {
  return createSimulatedWorker({
    id,
    provider: 'simulated',
    model: id,
    price: { input: 1, output: 2 },
    simulated: { skill: { default: 1 }, confirmRight: 1, fixWrong: 1, ...behaviour },
  });
}

const solveAndCheck: Workflow = {
  steps: [
    { worker: 0, subtask: 'Solve it.', access: [] },
    { worker: 1, subtask: 'Check the answer and state it.', access: 'all' },
  ],
};
const completion = (w: Workflow) => `Step one solves, step two checks.\n${renderWorkflow(w)}`;

describe('runEpisode', () => {
  it("a follow-up: the bounded thread reaches the Conductor's prompt and every step, and the episode names its conversation", async () => {
    const thread = Array.from({ length: 6 }, (_, i) => ({ question: `Earlier question ${i}`, answer: `<answer>${i}</answer>` }));
    const episode = await runEpisode({
      task,
      thread,
      pool: [sim('a'), sim('b')],
      conductor: createFixedConductor(completion(solveAndCheck)),
      options: { conversation: { id: 'c1', turn: 6 } },
    });
    const block = threadBlock(boundThread(thread));
    expect(block).not.toContain('Earlier question 1');
    expect(block).toContain('Earlier question 5');
    expect(episode.prompt[1].content).toContain(block);
    for (const step of episode.steps) expect(step.messages[0].content).toContain(block);
    expect(episode.conversation).toEqual({ id: 'c1', turn: 6 });
    expect(validateEpisode(episode).ok).toBe(true);
  });

  it('plans, runs and grades a question, filling every episode field and reporting events in order', async () => {
    const events: RunEvent[] = [];
    const pool = [sim('a'), sim('b')];
    const episode = await runEpisode({
      task,
      pool,
      conductor: createFixedConductor(completion(solveAndCheck)),
      options: { tags: ['test'], group: 'g1' },
      onEvent: (e) => events.push(e),
    });
    expect(validateEpisode(episode)).toEqual({ ok: true, episode });
    expect(episode.status).toBe('ok');
    expect(episode.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(episode.prompt).toEqual(
      buildConductorPrompt({ question: task.question, workers: pool.map((w) => w.spec), maxSteps: 5, access: 'binary', kind: 'number' }),
    );
    expect(episode.workflow).toEqual(solveAndCheck);
    expect(episode.steps.map((s) => s.workerId)).toEqual(['a', 'b']);
    expect(episode.final).toBe(episode.steps[1].output);
    expect(episode.final).toContain('<answer>42</answer>');
    expect(episode.reward).toMatchObject({ correct: true, format: true });
    expect(episode.reward?.infraError).toBeFalsy();
    expect(episode.totals.usage.input).toBe(episode.steps[0].usage.input + episode.steps[1].usage.input);
    expect(episode.totals.costUsd).toBeCloseTo(episode.steps[0].costUsd! + episode.steps[1].costUsd!, 12);
    expect(episode).toMatchObject({ rounds: [], tags: ['test'], group: 'g1', conductor: { runtime: 'fixed' }, pool: pool.map((w) => w.spec) });
    const types = events.map((e) => e.type).filter((t) => t !== 'step-delta');
    expect(types).toEqual([
      'conductor-delta',
      'conductor-done',
      'step-queued',
      'step-queued',
      'step-started',
      'step-done',
      'step-started',
      'step-done',
      'round-done',
      'run-done',
    ]);
    expect(events.at(-1)).toEqual({ type: 'run-done', episode });
  });

  it('scores a wrong final answer as wrong', async () => {
    const episode = await runEpisode({
      task,
      pool: [sim('a', { skill: { default: 0 } }), sim('b', { fixWrong: 0 })],
      conductor: createFixedConductor(completion(solveAndCheck)),
    });
    expect(episode.status).toBe('ok');
    expect(episode.reward).toMatchObject({ correct: false, format: true });
  });

  it('records an unparsable completion as a format error with the format reward, calling no worker', async () => {
    const episode = await runEpisode({ task, pool: [sim('a')], conductor: createFixedConductor('I would ask model 0.') });
    expect(validateEpisode(episode).ok).toBe(true);
    expect(episode.status).toBe('format-error');
    expect(episode.parseError).toBe(
      'missing the model_id, subtasks and access_list lists; end the answer with model_id = [...], subtasks = [...] and access_list = [...]',
    );
    expect(episode.workflow).toBeUndefined();
    expect(episode.steps).toEqual([]);
    expect(episode.reward).toMatchObject({ correct: false, format: false });
  });

  it('flags a failed worker call as an infrastructure error, never as a wrong answer', async () => {
    const episode = await runEpisode({
      task,
      pool: [sim('a'), sim('b', { latencyMs: 1000 })],
      conductor: createFixedConductor(completion(solveAndCheck)),
      options: { timeoutMs: 20 },
    });
    expect(episode.status).toBe('infra-error');
    expect(episode.reward?.infraError).toBe(true);
    expect(episode.steps[1].error?.code).toBe('provider/timeout');
  });

  it("reports a failed Conductor call as an event carrying the episode's error, so a page can show why", async () => {
    const events: RunEvent[] = [];
    const conductor = {
      info: { runtime: 'fixed' as const, model: 'down' },
      generate: () => Promise.reject(new BatonError({ code: 'provider/network', message: 'Could not reach the server.' })),
    };
    const episode = await runEpisode({ task, pool: [sim('a')], conductor, onEvent: (e) => events.push(e) });
    expect(episode.status).toBe('infra-error');
    expect(episode.error).toEqual({ code: 'provider/network', message: 'The Conductor failed: Could not reach the server.' });
    expect(events.map((e) => e.type)).toEqual(['conductor-failed', 'run-done']);
    expect(events[0]).toEqual({ type: 'conductor-failed', round: 0, error: episode.error });
  });

  it('stops with status "budget" when the cap forbids a call', async () => {
    const episode = await runEpisode({
      task,
      pool: [sim('a'), sim('b')],
      conductor: createFixedConductor(completion(solveAndCheck)),
      options: { budgetUsd: 0.001 },
    });
    expect(episode.status).toBe('budget');
    expect(episode.steps[0].error?.code).toBe('run/budget');
    expect(episode.reward?.infraError).toBe(true);
  });

  it('returns an aborted episode without a reward when stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const episode = await runEpisode({ task, pool: [sim('a')], conductor: createFixedConductor(completion(solveAndCheck)), signal: controller.signal });
    expect(validateEpisode(episode).ok).toBe(true);
    expect(episode.status).toBe('aborted');
    expect(episode.reward).toBeUndefined();
  });

  it('checkpoints the episode as it goes, marked interrupted, under the id of the finished one', async () => {
    const checkpoints: Episode[] = [];
    const episode = await runEpisode({
      id: 'run-1',
      task,
      pool: [sim('a'), sim('b')],
      conductor: createFixedConductor(completion(solveAndCheck)),
      onCheckpoint: (ep) => checkpoints.push(structuredClone(ep)),
    });
    // At the start, after the plan, after each of the two steps.
    expect(checkpoints.map((c) => [c.completion.text === '', c.workflow !== undefined, c.steps.length])).toEqual([
      [true, false, 0],
      [false, true, 0],
      [false, true, 1],
      [false, true, 2],
    ]);
    for (const c of checkpoints) {
      expect(validateEpisode(c).ok).toBe(true);
      expect(c).toMatchObject({ id: episode.id, createdAt: episode.createdAt, status: 'aborted', error: INTERRUPTED_ERROR });
      expect(c.reward).toBeUndefined();
    }
    expect(episode.id).toBe('run-1');
    expect(checkpoints[2].steps[0]).toEqual(episode.steps[0]);
    expect(checkpoints[3].totals.usage).toEqual(episode.totals.usage);
    expect(episode.status).toBe('ok');
    expect(episode.error).toBeUndefined();
  });

  it('recursion: three empty lists keep the previous answer', async () => {
    const conductor = createFixedConductor([completion(solveAndCheck), 'It is right.\nmodel_id = []\nsubtasks = []\naccess_list = []']);
    const episode = await runEpisode({ task, pool: [sim('a'), sim('b')], conductor, options: { recursionDepth: 2 } });
    expect(episode.rounds).toHaveLength(1);
    expect(episode.rounds[0]).toMatchObject({ kept: true, steps: [], final: episode.steps[1].output });
    expect(episode.final).toBe(episode.steps[1].output);
    expect(episode.rounds[0].prompt.at(-2)?.content).toContain(episode.steps[1].output);
    expect(episode.reward?.correct).toBe(true);
  });

  it('recursion: a new round\'s "all" steps also see the previous round, its [] steps do not', async () => {
    const second: Workflow = {
      steps: [
        { worker: 1, subtask: 'Fresh attempt.', access: [] },
        { worker: 0, subtask: 'Compare everything.', access: 'all' },
      ],
    };
    const conductor = createFixedConductor([completion(solveAndCheck), completion(second)]);
    const episode = await runEpisode({ task, pool: [sim('a'), sim('b')], conductor, options: { recursionDepth: 1 } });
    const [fresh, compare] = episode.rounds[0].steps;
    expect(fresh.messages[0].content).not.toContain('<previous_round>');
    const previous = /<previous_round>([\s\S]*)<\/previous_round>/.exec(compare.messages[0].content)?.[1] ?? '';
    expect(previous).toContain(episode.steps[0].output);
    expect(previous).toContain(episode.steps[1].output);
    expect(compare.messages[0].content.split('</previous_round>')[1]).toContain(fresh.output);
    expect(episode.final).toBe(compare.output);
    expect(validateEpisode(episode).ok).toBe(true);
    expect(episode.totals.usage.output).toBe([...episode.steps, ...episode.rounds[0].steps].reduce((n, s) => n + s.usage.output, 0));
  });
});
