/** The Train page's questions: the same task sets as `baton train --tasks`, 'experts' from the few MMLU subjects bundled for the tab. */
import { expect, it } from 'vitest';
import { mmluSubject, shortExpertsTaskSet } from '../../../../src/core/bench/index.ts';
import { trainingTasks } from '../../../../src/services/trainer/training-tasks.ts';

it("draws 'experts' from GSM8K and the four bundled MMLU subjects, 100 of each kind split 80/20", async () => {
  const { train, heldOut } = await trainingTasks('experts', 3);
  expect([train.length, heldOut.length]).toEqual([160, 40]);
  const mcq = [...train, ...heldOut].filter((t) => t.kind === 'mcq');
  expect(new Set(mcq.map(mmluSubject))).toEqual(new Set(['global_facts', 'management', 'medical_genetics', 'world_religions']));
  expect((await trainingTasks('experts', 3)).heldOut).toEqual(heldOut);
});

it("generates 'experts-short' as the CLI does", async () => {
  expect(await trainingTasks('experts-short', 2)).toEqual(shortExpertsTaskSet({ seed: 2 }));
});
