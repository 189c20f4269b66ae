import { BatonError } from '../../errors/index.ts';
import { formatCsv, parseCsvObjects } from '../../formats/index.ts';
import { normalizeQuestion, type ReplayRecord, type ReplayTable } from './replay-table.ts';

// RouteLLM's recorded evaluations (lm-sys/RouteLLM, routellm/evals): a "prompt" column, one True/False
// column per model, and for GSM8K also "<model>_response" columns with the full text.

const RESPONSE_SUFFIX = '_response';

function parseBool(value: string, where: string): boolean {
  if (value === 'True' || value === 'true') return true;
  if (value === 'False' || value === 'false') return false;
  throw new BatonError({ code: 'data/invalid', message: `${where}: expected True or False, got "${value}".` });
}

/** A RouteLLM responses CSV (GSM8K with responses, or an MMLU subject with correctness only). */
export function parseRouteLlmCsv(text: string, source = 'RouteLLM CSV'): ReplayTable {
  const rows = parseCsvObjects(text, source);
  const header = rows.length > 0 ? Object.keys(rows[0]) : [];
  if (rows.length > 0 && !header.includes('prompt')) {
    throw new BatonError({ code: 'data/invalid', message: `${source}: no "prompt" column; is this a RouteLLM responses file?` });
  }
  const models = header.filter((h) => h !== 'prompt' && !h.endsWith(RESPONSE_SUFFIX));
  const entries = new Map<string, Record<string, ReplayRecord>>();
  rows.forEach((row, i) => {
    const record: Record<string, ReplayRecord> = {};
    for (const m of models) {
      const response = row[m + RESPONSE_SUFFIX];
      record[m] = { correct: parseBool(row[m], `${source}, record ${i + 1}, column ${m}`), ...(response !== undefined ? { response } : {}) };
    }
    entries.set(normalizeQuestion(row.prompt), record);
  });
  return { models, entries };
}

/**
 * The records of `columns` on `questions` as a RouteLLM responses CSV, which parseRouteLlmCsv reads back to
 * the same entries (a training bundle carries its replay pool's records this way). Questions without a
 * record of every column are left out; a response column is written where every kept record has one.
 */
export function routeLlmCsv(table: ReplayTable, columns: readonly string[], questions: readonly string[]): string {
  const keys = [...new Set(questions.map(normalizeQuestion))].filter((q) => columns.every((c) => table.entries.get(q)?.[c] !== undefined));
  const withResponse = columns.filter((c) => keys.every((q) => table.entries.get(q)![c].response !== undefined));
  const rows = keys.map((q) => {
    const record = table.entries.get(q)!;
    return [q, ...columns.map((c) => (record[c].correct ? 'True' : 'False')), ...withResponse.map((c) => record[c].response!)];
  });
  return formatCsv([['prompt', ...columns, ...withResponse.map((c) => c + RESPONSE_SUFFIX)], ...rows]);
}
