import { BatonError } from '../../errors/index.ts';

/** One JSON object per non-empty line; a bad line is an error naming its line number. */
export function parseJsonl(text: string, source = 'JSONL'): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new BatonError({ code: 'data/invalid', message: `${source}, line ${i + 1}: not valid JSON (${(e as Error).message}).`, cause: e });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new BatonError({ code: 'data/invalid', message: `${source}, line ${i + 1}: expected a JSON object.` });
    }
    out.push(value as Record<string, unknown>);
  });
  return out;
}

/** A required string (or number) field of a record, or an error naming the record and field. */
export function requireField(record: Record<string, unknown>, field: string, where: string): string {
  const value = record[field];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new BatonError({ code: 'data/invalid', message: `${where}: field "${field}" is missing or not a string.` });
}
