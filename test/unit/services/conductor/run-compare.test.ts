// The store finds IndexedDB as a global, as in a worker.
import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { episodeStore } from '../../../../src/core/episodes/browser-store.ts';
import type { RunEvent } from '../../../../src/core/orchestra/index.ts';
import { DEMO_POOL } from '../../../../src/core/providers/simulated/demo-pool.ts';
import { renderWorkflow } from '../../../../src/core/workflow/index.ts';
import { AskService } from '../../../../src/services/conductor/ask-service.ts';
import type { CompareRequest } from '../../../../src/services/conductor/api.ts';

const pool = DEMO_POOL.map((w) => ({ ...w, simulated: { ...w.simulated!, latencyMs: 0 } }));
const base: Omit<CompareRequest, 'group' | 'episodeIds'> = {
  task: { question: 'What is 6 x 7?', answer: '42', kind: 'number' },
  pool,
  conductor: { kind: 'random-routing' },
  options: { maxSteps: 5, access: 'positional', recursionDepth: 0, budgetUsd: 1, stepTimeoutMs: 10_000 },
  keys: {},
};

test('a comparison runs four different plans side by side, stored as one group tagged compare', async () => {
  const events = new Map<number, RunEvent['type'][]>();
  const ids = ['r0', 'r1', 'r2', 'r3'];
  const episodes = await new AskService().compare({ ...base, group: 'g-compare', episodeIds: ids }, (run, e) =>
    events.set(run, [...(events.get(run) ?? []), e.type]),
  );
  expect(episodes.map((e) => e.id)).toEqual(ids);
  expect(new Set(episodes.map((e) => renderWorkflow(e.workflow!))).size).toBe(4);
  expect([...events.keys()].sort()).toEqual([0, 1, 2, 3]);
  for (const types of events.values()) expect(types.at(-1)).toBe('run-done');
  const stored = (await (await episodeStore()).list({ filter: { group: 'g-compare' } })).episodes;
  expect(stored.map((e) => [e.id, e.tags, e.status]).sort()).toEqual(ids.map((id) => [id, ['compare'], 'ok']));
});

test('an edited plan runs as written, under the prompt of the run it came from, into the group', async () => {
  const service = new AskService();
  const [original] = await service.compare({ ...base, group: 'g-edit', episodeIds: ['e0', 'e1'] }, () => {});
  const workflow = { steps: [{ worker: 1, subtask: 'Solve it and give the answer in <answer></answer> tags.', access: [] as number[] }] };
  const edited = await service.rerunEdited({ ...base, group: 'g-edit', episodeId: 'e2', workflow, prompt: original.prompt }, () => {});
  expect(edited).toMatchObject({ id: 'e2', group: 'g-edit', tags: ['compare', 'edited'], workflow, prompt: original.prompt, status: 'ok' });
  expect(edited.steps.map((s) => s.workerId)).toEqual([pool[1].id]);
  expect(edited.reward?.details).toMatchObject({ gold: '42' });
  await expect(
    service.rerunEdited(
      { ...base, group: 'g-edit', episodeId: 'e3', workflow: { steps: [{ worker: 9, subtask: 'x', access: [] }] }, prompt: original.prompt },
      () => {},
    ),
  ).rejects.toMatchObject({ code: 'run/config', message: expect.stringMatching(/^The edited plan cannot run: /) });
  expect(await (await episodeStore()).get('e3')).toBeUndefined();
});

test('a fused answer is one step of the chosen worker that sees every answer, stored in the group without a reward', async () => {
  const fused = await new AskService().fuse({ ...base, group: 'g-fuse', episodeId: 'f', worker: 0, answers: ['It is 42.', 'I get 41.'] }, () => {});
  expect(fused).toMatchObject({ id: 'f', group: 'g-fuse', tags: ['fuse'], status: 'ok' });
  expect(fused.reward).toBeUndefined();
  expect(fused.steps).toHaveLength(1);
  expect(fused.steps[0].workerId).toBe(pool[0].id);
  expect(fused.steps[0].messages[0].content).toMatch(/<answer_1>\nIt is 42\.\n<\/answer_1>\n\n<answer_2>\nI get 41\.\n<\/answer_2>/);
  expect(await (await episodeStore()).get('f')).toEqual(fused);
});

test('a comparison of one run, or seven, is refused with the range', async () => {
  await expect(new AskService().compare({ ...base, group: 'g', episodeIds: ['x'] }, () => {})).rejects.toThrow('A comparison runs 2 to 6 workflows, not 1.');
});
