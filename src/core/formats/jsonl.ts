import { BatonError } from '../errors/index.ts';

// A JSON number token, or a string token (skipped whole, so digits inside strings are left alone).
const TOKEN = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * JSON.parse, except that an integer too large for a double (past 2^53) becomes a string of its digits:
 * JSON.parse would round it (a gold 12345678901234567891 would be graded as ...7890), and Node 20's
 * reviver does not see a number's source text.
 */
export function parseJsonKeepingIntegers(text: string): unknown {
  return JSON.parse(text.replace(TOKEN, (token) => (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token)) ? `"${token}"` : token)));
}

/** Each non-empty line's JSON object, or why it is not one, with its line number (1-based). */
export function jsonlLines(text: string): ({ line: number; record: Record<string, unknown> } | { line: number; error: string })[] {
  const out: ({ line: number; record: Record<string, unknown> } | { line: number; error: string })[] = [];
  text.split(/\r?\n/).forEach((text, i) => {
    if (text.trim() === '') return;
    const line = i + 1;
    let value: unknown;
    try {
      value = parseJsonKeepingIntegers(text);
    } catch (e) {
      return out.push({ line, error: `not valid JSON (${(e as Error).message})` });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return out.push({ line, error: 'expected a JSON object' });
    out.push({ line, record: value as Record<string, unknown> });
  });
  return out;
}

/** One JSON object per non-empty line; a bad line is an error naming its line number. */
export function parseJsonl(text: string, source = 'JSONL'): Record<string, unknown>[] {
  return jsonlLines(text).map((l) => {
    if ('error' in l) throw new BatonError({ code: 'data/invalid', message: `${source}, line ${l.line}: ${l.error}.` });
    return l.record;
  });
}

/** A required string (or number) field of a record, or an error naming the record and field. */
export function requireField(record: Record<string, unknown>, field: string, where: string): string {
  const value = record[field];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new BatonError({ code: 'data/invalid', message: `${where}: field "${field}" is missing or not a string.` });
}
