/**
 * The recorded pools and task sets over the data Baton ships (data/zeroeval, data/routerbench): their sizes,
 * their splits, and that a replayed single answer grades as it was recorded, on every kind (a sample of
 * every set, each model of the pool of all).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readRecordedSets } from '../../../../src/core/bench/index.ts';
import { executeWorkflow } from '../../../../src/core/orchestra/index.ts';
import { recordedSourceOf, type RecordedQuestion } from '../../../../src/core/providers/replay/index.ts';
import { gradeAnswer } from '../../../../src/core/reward/index.ts';
import type { Task } from '../../../../src/core/task.ts';
import { buildPool, builtInPool, NODE_DATA_FILES, readBuiltInTaskSet, readReplayFlags } from '../../../../src/node/inputs/index.ts';
import { recordingIo } from '../../../support/cli-io.ts';

describe.each(['routerbench', 'zeroeval'] as const)('the %s pools and task set', (source) => {
  let questions: RecordedQuestion[];
  beforeAll(async () => {
    questions = (await readRecordedSets(NODE_DATA_FILES, source)).flatMap((s) => s.questions);
  });

  it('hold every question, split by the source or a fifth of each set by the seed', async () => {
    const { train, heldOut } = await readBuiltInTaskSet(source, 0);
    expect(train.length + heldOut.length).toBe(questions.length);
    if (source === 'routerbench') expect(heldOut).toHaveLength(questions.filter((q) => q.split === 'test').length);
    else expect(heldOut.length / questions.length).toBeCloseTo(0.2, 2);
    expect(new Set([...train, ...heldOut].map((t) => t.itemId)).size).toBe(questions.length);
  });

  it('replay each model answering alone as it was recorded: its grade, and dollars as the data says', async () => {
    const specs = await builtInPool(source);
    expect(specs.length).toBe(source === 'routerbench' ? 11 : 27);
    expect((await builtInPool(`${source}-4`)).map((s) => specs.some((w) => w.model === s.model))).toEqual([true, true, true, true]);
    const pool = await buildPool(specs, {}, await readReplayFlags(recordingIo('.'), [], specs), 0);
    const { train, heldOut } = await readBuiltInTaskSet(source, 0);
    const byItem = new Map([...train, ...heldOut].map((t) => [t.itemId, t]));
    const sets = await readRecordedSets(NODE_DATA_FILES, source);
    let checked = 0;
    for (const { set, questions: qs } of sets) {
      for (const q of qs.filter((_, i) => i % 40 === 0)) {
        const task: Task = byItem.get(`${set}/${q.id}`)!;
        for (const [w, spec] of specs.entries()) {
          const run = await executeWorkflow({ steps: [{ worker: w, subtask: 'Answer.', access: [] }] }, { task, pool });
          const record = q.records[spec.model.slice(recordedSourceOf(spec.model)!.length + 1)];
          expect(gradeAnswer(run.answer, task).correct, `${spec.id} on ${set}/${q.id}`).toBe(record.correct);
          // data/ keeps dollars to 4 significant digits.
          expect(Math.abs(run.steps[0].costUsd! - record.usd)).toBeLessThanOrEqual(record.usd * 5e-4 + 1e-12);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(source === 'routerbench' ? 800 : 1800);
  }, 120_000);
});
