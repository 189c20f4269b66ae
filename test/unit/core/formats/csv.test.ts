import { describe, expect, it } from 'vitest';
import { parseCsv, parseCsvObjects } from '../../../../src/core/formats/index.ts';

describe('parseCsv', () => {
  it('reads quoted fields holding commas, doubled quotes and line breaks', () => {
    const text = 'a,b,c\n"x, y","say ""hi""","line 1\nline 2"\nplain,,end';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'line 1\nline 2'],
      ['plain', '', 'end'],
    ]);
  });

  it('accepts CRLF rows, a BOM and a final newline, and keeps CR inside quotes', () => {
    expect(parseCsv('\ufeffa,b\r\n"1\r\n2",3\r\n')).toEqual([
      ['a', 'b'],
      ['1\r\n2', '3'],
    ]);
  });

  it('keeps a trailing empty field', () => {
    expect(parseCsv('a,\n')).toEqual([['a', '']]);
  });

  it('rejects text that ends inside quotes', () => {
    expect(() => parseCsv('a\n"open')).toThrowError(expect.objectContaining({ code: 'data/invalid' }));
  });
});

describe('parseCsvObjects', () => {
  it('keys rows by the header and names a row with the wrong field count', () => {
    expect(parseCsvObjects('q,a\n"1+1",2')).toEqual([{ q: '1+1', a: '2' }]);
    expect(() => parseCsvObjects('q,a\n1,2\n3', 'demo.csv')).toThrow(/demo\.csv: record 2 has 1 fields/);
  });
});
