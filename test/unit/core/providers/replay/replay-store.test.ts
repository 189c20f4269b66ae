// idb recognises requests by the global IDBRequest & co., which fake-indexeddb/auto installs.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import { clearReplay, importReplayCsv, loadReplay } from '../../../../../src/core/providers/replay/replay-store.ts';

const GSM = 'prompt,gpt-4,gpt-4_response\n"What is 2 + 2?",True,"It is <answer>4</answer>."\n';
const MMLU = 'prompt,gpt-4,mixtral\n"Which planet is red? A) Venus B) Mars",False,True\n"What is 2 + 2?",False,True\n';

test('imported CSVs merge into one stored table; later files win on a repeated question', async () => {
  const factory = new IDBFactory();
  expect(await loadReplay(factory)).toBeUndefined();
  await importReplayCsv(factory, [{ name: 'gsm.csv', text: GSM }]);
  const merged = await importReplayCsv(factory, [{ name: 'mmlu.csv', text: MMLU }]);
  expect(merged.sources).toEqual(['gsm.csv', 'mmlu.csv']);
  expect(merged.table.models).toEqual(['gpt-4', 'mixtral']);
  expect(merged.table.entries.size).toBe(2);
  expect(merged.table.entries.get('what is 2 + 2?')).toEqual({ 'gpt-4': { correct: false }, mixtral: { correct: true } });
  expect(await loadReplay(factory)).toEqual(merged);
  await clearReplay(factory);
  expect(await loadReplay(factory)).toBeUndefined();
});

test('a file that is not a RouteLLM CSV is refused and nothing is stored', async () => {
  const factory = new IDBFactory();
  await expect(importReplayCsv(factory, [{ name: 'x.csv', text: 'question,answer\nq,a\n' }])).rejects.toMatchObject({ code: 'data/invalid' });
  expect(await loadReplay(factory)).toBeUndefined();
});
