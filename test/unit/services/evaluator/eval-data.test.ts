/**
 * The Evaluate page's items as the evaluator worker reads them: built-in sets from data/ through the
 * bundler's imports (core/bench's loader, as baton eval's), the window, MMLU subjects, and the user's CSV
 * through a field mapping with its bad rows by line.
 */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { builtInTasks, loadGsm8k, mmluSubjects } from '../../../../src/core/bench/index.ts';
import { evalDataFiles, loadItems } from '../../../../src/services/evaluator/index.ts';

it('reads the built-in sets from data/ as baton eval does, in their window', async () => {
  const gsm8k = await builtInTasks('gsm8k', evalDataFiles);
  expect(gsm8k).toEqual(loadGsm8k(await readFile(new URL('../../../../data/gsm8k/test.jsonl', import.meta.url), 'utf8')));
  const window = await loadItems({ data: { from: 'builtin', name: 'gsm8k' }, offset: 5, limit: 3 });
  expect(window.tasks).toEqual(gsm8k.slice(5, 8));
  expect((await builtInTasks('aime2024', evalDataFiles)).length).toBe(30);
});

it('lists MMLU subjects and reads only those chosen', async () => {
  const subjects = await mmluSubjects(evalDataFiles);
  expect(subjects.length).toBe(57);
  expect(subjects).toContain('anatomy');
  const anatomy = await builtInTasks('mmlu', evalDataFiles, ['anatomy']);
  expect(anatomy.length).toBe(135);
  expect(anatomy.every((t) => t.kind === 'mcq' && t.itemId!.startsWith('anatomy/'))).toBe(true);
  await expect(builtInTasks('mmlu', evalDataFiles, ['astrology'])).rejects.toThrow(/No MMLU subject astrology/);
});

it("maps the user's CSV and names its bad rows by line", async () => {
  const csv = 'problem,solution\n"What is 2 + 2?",4\nno answer here\n"What is 3 + 3?",6\n';
  const file = new TextEncoder().encode(csv).buffer as ArrayBuffer;
  const read = await loadItems(
    { data: { from: 'file', name: 'mine.csv', format: 'csv', map: 'question=problem,answer=solution', skipBad: true }, offset: 0 },
    { file },
  );
  expect(read.tasks.map((t) => [t.question, t.answer, t.itemId])).toEqual([
    ['What is 2 + 2?', '4', '2'],
    ['What is 3 + 3?', '6', '4'],
  ]);
  expect(read.bad).toEqual([{ line: 3, reason: '1 fields where the header has 2' }]);
  await expect(loadItems({ data: { from: 'file', name: 'mine.csv', format: 'csv', map: '', skipBad: true }, offset: 0 })).rejects.toThrow(
    /Pick the file mine\.csv again/,
  );
});
