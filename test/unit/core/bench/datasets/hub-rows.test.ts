/** Hugging Face dataset rows through a stand-in datasets server: split discovery, paging, cache, progress, errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubRows, parseHubRef, type PageCache } from '../../../../../src/core/bench/datasets/index.ts';
import { startFakeDatasetsServer, type FakeDatasetsServer } from '../../../../support/fake-datasets-server.ts';

const ROWS = Array.from({ length: 250 }, (_, i) => ({ question: `What is ${i} + 1?`, answer: String(i + 1) }));
let server: FakeDatasetsServer;

beforeAll(async () => {
  server = await startFakeDatasetsServer({
    'me/sums': { configs: { default: { train: ROWS.slice(0, 5), test: ROWS } } },
    'me/mcq': { configs: { hard: { validation: ROWS.slice(0, 3) }, easy: { test: ROWS.slice(3, 7) } } },
  });
});
afterAll(() => server.close());

const memoryCache = (): PageCache & { pages: Map<string, string> } => {
  const pages = new Map<string, string>();
  return { pages, get: async (u) => pages.get(u), put: async (u, t) => void pages.set(u, t) };
};

describe('parseHubRef', () => {
  it('reads hf:owner/name[:config[:split]]', () => {
    expect(parseHubRef('hf:me/sums')).toEqual({ dataset: 'me/sums' });
    expect(parseHubRef('hf:me/sums:default:test')).toEqual({ dataset: 'me/sums', config: 'default', split: 'test' });
    expect(parseHubRef('data.jsonl')).toBeUndefined();
    expect(() => parseHubRef('hf:me/sums::test')).toThrow(/hf:owner\/name:config:split/);
  });
});

describe('hubRows', () => {
  it('finds the test split, reads every row in pages of 100, reports progress and numbers rows from 1', async () => {
    server.requests.length = 0;
    const progress: [number, number][] = [];
    const read = await hubRows({ dataset: 'me/sums' }, { baseUrl: server.url, onProgress: (r, t) => progress.push([r, t]) });
    expect([read.config, read.split, read.total]).toEqual(['default', 'test', 250]);
    expect(read.rows).toHaveLength(250);
    expect(read.rows[249]).toEqual({ line: 250, record: ROWS[249] });
    expect(server.requests.map((r) => [r.path, r.query.offset, r.query.length])).toEqual([
      ['/splits', undefined, undefined],
      ['/rows', '0', '100'],
      ['/rows', '100', '100'],
      ['/rows', '200', '50'],
    ]);
    expect(progress).toEqual([
      [100, 250],
      [200, 250],
      [250, 250],
    ]);
  });

  it('reads only the window asked for, and a second time from the cache alone', async () => {
    server.requests.length = 0;
    const cache = memoryCache();
    const ref = { dataset: 'me/sums', config: 'default', split: 'test' };
    const first = await hubRows(ref, { baseUrl: server.url, offset: 90, limit: 15, cache });
    expect(first.rows.map((r) => r.line)).toEqual(Array.from({ length: 15 }, (_, i) => 91 + i));
    expect(server.requests.map((r) => [r.query.offset, r.query.length])).toEqual([['90', '15']]);
    const again = await hubRows(ref, { baseUrl: server.url, offset: 90, limit: 15, cache });
    expect(again.rows).toEqual(first.rows);
    expect(server.requests).toHaveLength(1);
  });

  it('takes a named config and its only split', async () => {
    const read = await hubRows({ dataset: 'me/mcq', config: 'hard' }, { baseUrl: server.url });
    expect([read.config, read.split, read.rows.length]).toEqual(['hard', 'validation', 3]);
  });

  it("passes the server's own error on, naming the dataset", async () => {
    await expect(hubRows({ dataset: 'me/missing' }, { baseUrl: server.url })).rejects.toThrow(/answered 404 .*me%2Fmissing.*does not exist/);
    await expect(hubRows({ dataset: 'me/mcq', config: 'none' }, { baseUrl: server.url })).rejects.toThrow(/no config "none"/);
  });
});

describe('hubRows on integers past 2^53', () => {
  it("keeps their digits, as the page's text has them", async () => {
    // A page as an earlier read cached it, text and all.
    const cache = memoryCache();
    const url = 'http://127.0.0.1:9/rows?dataset=me%2Fbig&config=c&split=s&offset=0&length=1';
    await cache.put(url, '{"rows":[{"row_idx":0,"row":{"question":"How many?","answer":12345678901234567891}}],"num_rows_total":1}');
    const read = await hubRows({ dataset: 'me/big', config: 'c', split: 's' }, { baseUrl: 'http://127.0.0.1:9', limit: 1, cache });
    expect(read.rows).toEqual([{ line: 1, record: { question: 'How many?', answer: '12345678901234567891' } }]);
  });
});
