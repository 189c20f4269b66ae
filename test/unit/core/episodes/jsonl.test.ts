import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, numberedLines, parseEpisodeLine } from '../../../../src/core/episodes/index.ts';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function* items(...xs: string[]): AsyncGenerator<string> {
  yield* xs;
}

describe('numberedLines', () => {
  it('numbers the lines of a text as an editor does, skipping blank ones and CRLF endings', async () => {
    expect(await collect(numberedLines('a\r\n\r\n  \nb\nc'))).toEqual([
      { number: 1, text: 'a' },
      { number: 4, text: 'b' },
      { number: 5, text: 'c' },
    ]);
  });

  it('takes each item of an async source as one line, with or without its newline', async () => {
    expect(await collect(numberedLines(items('a\n', '', 'b\r\n', 'c')))).toEqual([
      { number: 1, text: 'a' },
      { number: 3, text: 'b' },
      { number: 4, text: 'c' },
    ]);
  });
});

describe('parseEpisodeLine', () => {
  it('says when a line is not JSON at all', () => {
    const result = parseEpisodeLine('{"id": ');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^not valid JSON \(/);
  });
});

describe('page cursors', () => {
  it('round-trip ids holding spaces', () => {
    const p = { createdAt: '2026-02-03T04:05:06.007Z', id: 'run 12 / step 3' };
    expect(decodeCursor(encodeCursor(p))).toEqual(p);
  });

  it('refuse text that is no cursor', () => {
    expect(() => decodeCursor('page-2')).toThrow(expect.objectContaining({ code: 'data/invalid' }));
  });
});
