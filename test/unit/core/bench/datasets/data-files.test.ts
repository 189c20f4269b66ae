/** data/ through a host's DataFiles: lazy loaders by path, gzip, which files each built-in set reads, MMLU subjects, RouteLLM's records. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { builtInTasks, dataText, lazyDataFiles, loadMmluCsv, mmluSubjects, readShippedReplay, type DataFiles } from '../../../../../src/core/bench/index.ts';

/** A data/ of a few files in memory, counting the reads. */
function memoryFiles(files: Record<string, string | Uint8Array>): DataFiles & { reads: string[] } {
  const reads: string[] = [];
  const loaders = Object.fromEntries(Object.entries(files).map(([path, content]) => [`data/${path}`, async () => (reads.push(path), content)]));
  return { reads, ...lazyDataFiles(loaders, 'data/') };
}

const mmluCsv = (stem: string) => `question,choice0,choice1,choice2,choice3,answer\n${stem},a,b,c,d,2\n`;

describe('lazyDataFiles', () => {
  it('reads a file by its path under data/ and lists a folder without its subfolders', async () => {
    const files = memoryFiles({ 'a/x.csv': 'x', 'a/y.csv': 'y', 'a/deeper/z.csv': 'z' });
    expect(await files.read('a/y.csv')).toBe('y');
    expect(await files.list('a')).toEqual(['x.csv', 'y.csv']);
    expect(files.reads).toEqual(['a/y.csv']);
    await expect(files.read('a/w.csv')).rejects.toMatchObject({ code: 'data/not-found', message: expect.stringMatching(/data\/a\/w\.csv/) });
  });
});

describe('dataText', () => {
  it('decodes bytes, and unpacks only those that are still gzipped', async () => {
    const text = 'héllo\n';
    const files = memoryFiles({ 'plain.txt': new TextEncoder().encode(text), 'packed.gz': gzipSync(text), 'text.txt': text });
    expect(await Promise.all(['plain.txt', 'packed.gz', 'text.txt'].map((p) => dataText(files, p)))).toEqual([text, text, text]);
  });
});

describe('builtInTasks', () => {
  it('reads each set from its files, HumanEval gzipped', async () => {
    const files = memoryFiles({
      'gsm8k/test.jsonl': '{"question":"1+1?","answer":"2 #### 2"}\n',
      'math500/test.jsonl': '{"problem":"x?","answer":"\\\\frac12","unique_id":"m/1"}\n',
      'aime2024/test.jsonl': '{"id":7,"problem":"n?","answer":"042"}\n',
      'humaneval/HumanEval.jsonl.gz': gzipSync('{"task_id":"HumanEval/0","prompt":"def f():\\n","entry_point":"f","test":"assert f() is None"}\n'),
    });
    expect((await builtInTasks('gsm8k', files)).map((t) => [t.answer, t.kind])).toEqual([['2', 'gsm8k']]);
    expect((await builtInTasks('math500', files)).map((t) => [t.answer, t.itemId])).toEqual([['\\frac12', 'm/1']]);
    expect((await builtInTasks('aime2024', files)).map((t) => [t.answer, t.itemId])).toEqual([['42', '7']]);
    expect((await builtInTasks('humaneval', files)).map((t) => [t.kind, t.itemId])).toEqual([['code', 'HumanEval/0']]);
  });

  it('reads MMLU by subject: all of them sorted, or those named in their order, and names a subject it has not', async () => {
    const files = memoryFiles({ 'mmlu/test/virology_test.csv': mmluCsv('V?'), 'mmlu/test/anatomy_test.csv': mmluCsv('A?'), 'mmlu/README.md': '' });
    expect(await mmluSubjects(files)).toEqual(['anatomy', 'virology']);
    expect((await builtInTasks('mmlu', files)).map((t) => t.itemId)).toEqual(['anatomy/0', 'virology/0']);
    expect((await builtInTasks('mmlu', files, ['virology', 'anatomy'])).map((t) => t.itemId)).toEqual(['virology/0', 'anatomy/0']);
    files.reads.length = 0;
    expect(await builtInTasks('mmlu', files, ['anatomy'])).toEqual(loadMmluCsv(mmluCsv('A?'), 'anatomy'));
    expect(files.reads).toEqual(['mmlu/test/anatomy_test.csv']);
    await expect(builtInTasks('mmlu', files, ['astrology', 'anatomy'])).rejects.toMatchObject({
      code: 'run/config',
      message: 'No MMLU subject astrology (e.g. anatomy, virology, ...).',
    });
  });
});

describe('readShippedReplay', () => {
  it("merges RouteLLM's GSM8K records with every MMLU subject's", async () => {
    const files = memoryFiles({
      'routellm/gsm8k_responses.csv': 'prompt,gpt-4,gpt-4_response\n"1+1?",True,"2"\n',
      'routellm/mmlu/anatomy.csv': 'prompt,gpt-4\n"A bone?",False\n',
    });
    const table = await readShippedReplay(files);
    expect(table.models).toEqual(['gpt-4']);
    expect([...table.entries.values()]).toEqual([{ 'gpt-4': { correct: true, response: '2' } }, { 'gpt-4': { correct: false } }]);
  });
});
