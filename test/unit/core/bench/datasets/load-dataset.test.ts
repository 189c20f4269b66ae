/** One loader for every host: a built-in set, the user's file and a Hub dataset, in their window, with the bad rows by line or row. */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyDataFiles, loadDataset, type DatasetHost, type PageCache } from '../../../../../src/core/bench/index.ts';
import { startFakeDatasetsServer, type FakeDatasetsServer } from '../../../../support/fake-datasets-server.ts';

const GSM8K = Array.from({ length: 6 }, (_, i) => JSON.stringify({ question: `${i} + 1?`, answer: `#### ${i + 1}` })).join('\n');
const host: DatasetHost = { files: lazyDataFiles({ 'data/gsm8k/test.jsonl': async () => GSM8K }, 'data/') };
const CSV = 'q,a\n"1+1?",2\nno answer\n"2+2?",4\n"3+3?",6\n';

describe('loadDataset', () => {
  it('takes the window of a built-in set', async () => {
    const read = await loadDataset({ data: { from: 'builtin', name: 'gsm8k' }, offset: 2, limit: 3 }, host);
    expect(read).toMatchObject({ bad: [], unit: 'line' });
    expect(read.tasks.map((t) => [t.question, t.answer, t.itemId])).toEqual([
      ['2 + 1?', '3', '2'],
      ['3 + 1?', '4', '3'],
      ['4 + 1?', '5', '4'],
    ]);
  });

  it("maps the user's file, names its bad rows by line, and windows the tasks that map", async () => {
    const bytes = new TextEncoder().encode(CSV);
    const file = { from: 'file', name: 'mine.csv', format: 'csv', map: 'question=q,answer=a', kind: 'number' } as const;
    const read = await loadDataset({ data: { ...file, bytes }, offset: 1 }, host);
    expect(read.tasks.map((t) => [t.question, t.answer, t.kind, t.dataset, t.itemId])).toEqual([
      ['2+2?', '4', 'number', 'mine.csv', '4'],
      ['3+3?', '6', 'number', 'mine.csv', '5'],
    ]);
    expect(read.bad).toEqual([{ line: 3, reason: '1 fields where the header has 2' }]);
    expect(read.unit).toBe('line');
    expect(await loadDataset({ data: { ...file, bytes: bytes.buffer }, offset: 1 }, host)).toEqual(read);
  });

  it('numbers the rows of a Parquet file', async () => {
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'question', data: ['1+1?', ''], type: 'STRING' },
        { name: 'answer', data: ['2', '3'], type: 'STRING' },
      ],
    });
    // Bytes that sit inside a larger buffer, as a Node Buffer's may.
    const bytes = new Uint8Array([0, ...new Uint8Array(buffer)]).subarray(1);
    const read = await loadDataset({ data: { from: 'file', name: 'mine.parquet', format: 'parquet', bytes, map: '' }, offset: 0 }, host);
    expect(read.tasks.map((t) => t.question)).toEqual(['1+1?']);
    expect(read).toMatchObject({ bad: [{ line: 2, reason: 'no question in column "question"' }], unit: 'row' });
  });

  describe('from the Hub', () => {
    let server: FakeDatasetsServer;
    beforeAll(async () => {
      const rows = Array.from({ length: 150 }, (_, i) => ({ problem: `${i} + 1?`, solution: String(i + 1) }));
      server = await startFakeDatasetsServer({ 'me/sums': { configs: { main: { test: rows } } } });
    });
    afterAll(() => server.close());

    it('reads only the window, through the cache, and names the set by its config and split', async () => {
      const pages = new Map<string, string>();
      const cache: PageCache = { get: async (u) => pages.get(u), put: async (u, t) => void pages.set(u, t) };
      const data = { from: 'hub', dataset: 'me/sums', map: 'question=problem,answer=solution' } as const;
      const progress: number[] = [];
      const hub = { baseUrl: server.url, cache, onProgress: (read: number) => progress.push(read) };
      const read = await loadDataset({ data, offset: 120, limit: 5 }, { ...host, hub });
      expect(read.tasks.map((t) => [t.question, t.dataset, t.itemId])[0]).toEqual(['120 + 1?', 'me/sums:main:test', '121']);
      expect(read).toMatchObject({ bad: [], unit: 'row' });
      expect(read.tasks).toHaveLength(5);
      expect(progress).toEqual([5]);
      expect(server.requests.find((r) => r.path === '/rows')?.query).toMatchObject({ offset: '120', length: '5' });
      const asked = server.requests.length;
      expect(await loadDataset({ data, offset: 120, limit: 5 }, { ...host, hub })).toEqual(read);
      expect(server.requests.length).toBe(asked);
    });
  });
});
