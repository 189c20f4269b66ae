/** Recorded answers of many models (data/zeroeval, data/routerbench): parsed, checked, and replayed at their tokens and prices. */
import { describe, expect, it } from 'vitest';
import { readRecordedModels, readRecordedSets, readShippedReplay } from '../../../../../src/core/bench/index.ts';
import { executeWorkflow } from '../../../../../src/core/orchestra/index.ts';
import { parseRecordedSet, recordedPool } from '../../../../../src/core/providers/replay/index.ts';
import { createReplayWorker } from '../../../../../src/core/providers/replay/replay-chat-model.ts';
import { gradeAnswer } from '../../../../../src/core/reward/index.ts';
import { RECORDED_MODELS, recordedDataFiles } from '../../../../support/recorded-data.ts';

describe('parseRecordedSet', () => {
  it('names the line and the field a bad record gets wrong', () => {
    const good = { id: 'a', kind: 'number', question: 'q', answer: '1', records: { m: { text: 't', correct: true, inputTokens: 1, outputTokens: 1, usd: 0 } } };
    expect(parseRecordedSet(JSON.stringify(good), 'x.jsonl')[0].records.m.text).toBe('t');
    const noUsd = { ...good, records: { m: { text: 't', correct: true, inputTokens: 1, outputTokens: 1 } } };
    expect(() => parseRecordedSet(`${JSON.stringify(good)}\n${JSON.stringify(noUsd)}`, 'x.jsonl')).toThrow(/x\.jsonl, line 2: the record of m needs/);
    expect(() => parseRecordedSet(JSON.stringify({ ...good, kind: 'essay' }), 'x.jsonl')).toThrow(/"kind" must be one of/);
  });
});

describe('recorded pools', () => {
  it("are a source's models, replaying each question's recorded text and tokens at their list prices, or its recorded dollars", async () => {
    const files = recordedDataFiles(3);
    const specs = recordedPool(
      'routerbench',
      await readRecordedModels(files, 'routerbench'),
      (await readRecordedSets(files, 'routerbench')).flatMap((s) => s.questions),
    );
    expect(specs.map((s) => [s.id, s.model, s.price?.input])).toEqual([
      ['dear-1', 'routerbench/org/Dear-1', 10],
      ['mid-2', 'routerbench/mid-2', 1],
      ['cheap-3', 'routerbench/cheap-3', undefined],
    ]);
    const table = await readShippedReplay(
      files,
      specs.map((s) => s.model),
    );
    const pool = specs.map((s) => createReplayWorker(s, table));
    const questions = (await readRecordedSets(files, 'routerbench')).flatMap((s) => s.questions);
    for (const q of questions) {
      const task = { question: q.question, answer: q.answer, kind: q.kind, ...(q.choices ? { choices: q.choices } : {}) };
      for (const [w, spec] of specs.entries()) {
        const run = await executeWorkflow({ steps: [{ worker: w, subtask: 'Answer.', access: [] }] }, { task, pool });
        const recorded = q.records[RECORDED_MODELS[w].id];
        expect(run.answer).toContain(recorded.text);
        expect(gradeAnswer(run.answer, task).correct).toBe(recorded.correct);
        expect(run.steps[0].usage).toMatchObject({ input: 100, output: 50 });
        expect(run.steps[0].costUsd).toBeCloseTo(spec.price ? (100 * spec.price.input + 50 * spec.price.output) / 1e6 : recorded.usd, 12);
      }
    }
  });

  it('refuse a preset whose models the data lacks, naming them', () => {
    expect(() => recordedPool('routerbench-4', RECORDED_MODELS, [])).toThrow(/routerbench-4 names gpt-4-1106-preview.*does not have/);
  });
});
