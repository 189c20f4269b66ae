import { describe, expect, it } from 'vitest';
import { mergeReplayTables, normalizeQuestion, parseRouteLlmCsv, routeLlmCsv } from '../../../../../src/core/providers/replay/index.ts';
import { createReplayWorker } from '../../../../../src/core/providers/replay/replay-chat-model.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/types.ts';
import type { Task } from '../../../../../src/core/task.ts';
import { loadGsm8k, loadMmluCsv } from '../../../../../src/core/bench/datasets/index.ts';
import { listData, readData } from '../../../../support/data.ts';

const GSM8K_CSV =
  'prompt,mistralai/Mixtral-8x7B-Instruct-v0.1,gpt-4-1106-preview,mistralai/Mixtral-8x7B-Instruct-v0.1_response,gpt-4-1106-preview_response\n' +
  'Tom’s  cat has 3 kittens. How many?,False,True," He has 4.\n#### 4","Three kittens, so 3."\n';

const MMLU_CSV = 'prompt,mistralai/Mixtral-8x7B-Instruct-v0.1,gpt-4-1106-preview\n' + '"Pick one\nA. w\nB. x\nC. y\nD. z\nAnswer:",False,True\n';

const spec = (model: string): WorkerSpec => ({ id: `replay-${model}`, provider: 'replay', model });
const call = (worker: ReturnType<typeof createReplayWorker>, task: Task) => worker.call({ messages: [{ role: 'user', content: 'anything' }], task });

describe('RouteLLM replay tables', () => {
  it('keys by normalised question and keeps full responses where recorded', () => {
    const table = parseRouteLlmCsv(GSM8K_CSV);
    expect(table.models).toEqual(['mistralai/Mixtral-8x7B-Instruct-v0.1', 'gpt-4-1106-preview']);
    expect(table.entries.get(normalizeQuestion("Tom's cat has 3 kittens. How many?"))).toEqual({
      'mistralai/Mixtral-8x7B-Instruct-v0.1': { correct: false, response: ' He has 4.\n#### 4' },
      'gpt-4-1106-preview': { correct: true, response: 'Three kittens, so 3.' },
    });
  });

  it('writes the records of some questions as a CSV that reads back to the same entries', () => {
    const table = mergeReplayTables([parseRouteLlmCsv(GSM8K_CSV), parseRouteLlmCsv(MMLU_CSV)]);
    const columns = ['gpt-4-1106-preview', 'mistralai/Mixtral-8x7B-Instruct-v0.1'];
    const both = parseRouteLlmCsv(routeLlmCsv(table, columns, ["Tom's cat has 3 kittens. How many?", 'Pick one\nA. w\nB. x\nC. y\nD. z', 'Never recorded']));
    // The MMLU record has no responses, so no response column is written for either model.
    expect([...both.entries.keys()]).toEqual([normalizeQuestion("Tom's cat has 3 kittens. How many?"), normalizeQuestion('Pick one\nA. w\nB. x\nC. y\nD. z')]);
    expect(both.entries.get(normalizeQuestion('Pick one A. w B. x C. y D. z'))).toEqual({
      'gpt-4-1106-preview': { correct: true },
      'mistralai/Mixtral-8x7B-Instruct-v0.1': { correct: false },
    });
    const gsm = parseRouteLlmCsv(routeLlmCsv(table, columns, ["Tom's cat has 3 kittens. How many?"]));
    expect(gsm.entries).toEqual(parseRouteLlmCsv(GSM8K_CSV).entries);
  });

  it('rejects a correctness cell that is not True or False', () => {
    expect(() => parseRouteLlmCsv('prompt,m\nq,maybe\n')).toThrow(/record 1, column m: expected True or False/);
  });
});

describe('createReplayWorker', () => {
  const table = mergeReplayTables([parseRouteLlmCsv(GSM8K_CSV), parseRouteLlmCsv(MMLU_CSV)]);
  const mcq: Task = { question: 'Pick one\nA. w\nB. x\nC. y\nD. z', answer: 'B', kind: 'mcq', choices: ['w', 'x', 'y', 'z'] };

  it('replays the recorded response of the model the spec names, matched without its organisation', async () => {
    const task: Task = { question: "Tom's cat has 3 kittens. How many?", answer: '3', kind: 'gsm8k' };
    expect((await call(createReplayWorker(spec('mixtral-8x7b-instruct-v0.1'), table), task)).text).toBe(' He has 4.\n#### 4');
    expect((await call(createReplayWorker(spec('gpt-4-1106-preview'), table), task)).text).toBe('Three kittens, so 3.');
  });

  it('turns a correctness record into the gold letter or a wrong one, and says it is a replay', async () => {
    const right = await call(createReplayWorker(spec('gpt-4-1106-preview'), table), mcq);
    expect(right.text).toMatch(/^Replayed record: gpt-4-1106-preview answered this question correctly/);
    expect(right.text).toContain('<answer>B</answer>');
    const wrong = await call(createReplayWorker(spec('mixtral-8x7b-instruct-v0.1'), table), mcq);
    expect(wrong.text).toMatch(/<answer>[ACD]<\/answer>$/);
  });

  it('never invents: unknown questions and unknown models are errors', async () => {
    const worker = createReplayWorker(spec('gpt-4-1106-preview'), table);
    await expect(call(worker, { question: 'Something else?', answer: '1', kind: 'number' })).rejects.toMatchObject({ code: 'provider/unknown-question' });
    await expect(call(worker, { ...mcq, answer: undefined })).rejects.toMatchObject({ code: 'provider/unknown-question' });
    expect(() => createReplayWorker(spec('claude-3'), table)).toThrowError(expect.objectContaining({ code: 'provider/unknown-model' }));
  });
});

describe('replay over the real RouteLLM files', () => {
  it('finds every GSM8K test question and an MMLU subject loaded by the dataset loaders', async () => {
    const gsm8kTable = parseRouteLlmCsv(readData('routellm/gsm8k_responses.csv'));
    expect(gsm8kTable.entries.size).toBe(1319);
    const tasks = loadGsm8k(readData('gsm8k/test.jsonl'));
    expect(tasks.filter((t) => !gsm8kTable.entries.has(normalizeQuestion(t.question)))).toEqual([]);
    const gpt4 = createReplayWorker(spec('gpt-4-1106-preview'), gsm8kTable);
    expect((await call(gpt4, tasks[0])).text).toContain('$18 every day');

    const anatomyTable = parseRouteLlmCsv(readData('routellm/mmlu/mmlu_anatomy.csv'));
    const anatomy = loadMmluCsv(readData('mmlu/test/anatomy_test.csv'), 'anatomy');
    expect(anatomy.filter((t) => !anatomyTable.entries.has(normalizeQuestion(t.question)))).toEqual([]);
  });

  it('finds every MMLU test question in the 57 subject files but ten whose option "None" RouteLLM recorded as "nan"', () => {
    const table = mergeReplayTables(listData('routellm/mmlu').map((file) => parseRouteLlmCsv(readData(`routellm/mmlu/${file}`), file)));
    const tasks = listData('mmlu/test').flatMap((file) => loadMmluCsv(readData(`mmlu/test/${file}`), file.replace(/_test\.csv$/, '')));
    expect(tasks).toHaveLength(14042);
    const missing = tasks.filter((t) => !table.entries.has(normalizeQuestion(t.question)));
    expect(missing.map((t) => t.itemId)).toEqual([
      'college_computer_science/10',
      'college_computer_science/94',
      'college_mathematics/8',
      'college_mathematics/21',
      'college_mathematics/60',
      'college_physics/60',
      'electrical_engineering/41',
      'electrical_engineering/68',
      'electrical_engineering/107',
      'electrical_engineering/117',
    ]);
    expect(missing.filter((t) => !t.choices!.includes('None'))).toEqual([]);
  });
});
