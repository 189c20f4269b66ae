/**
 * A user's own data set (JSONL, CSV, Parquet rows, or a Hugging Face dataset's rows) to tasks through a
 * field mapping `question=..,answer=..,kind=..,choices=..,id=..`. A row that cannot become a task is
 * reported by its line (or row) number with the reason, never dropped in silence: the caller either
 * stops with the list or, asked to skip them, reports it. Tests: test/unit/core/bench/datasets/user-data.test.ts.
 */
import { BatonError } from '../../errors/index.ts';
import { goldChoice } from '../../reward/index.ts';
import { kindOfAnswer, TASK_KINDS, type Task, type TaskKind } from '../../task.ts';
import { jsonlLines, parseCsvLines } from '../../formats/index.ts';
import { formatMcqQuestion, OPTION_LETTERS as LETTERS } from './loaders.ts';

interface FieldMap {
  question: string;
  answer: string;
  /** A column holding each row's kind; without it every row has the default kind. */
  kind?: string;
  /** One column holding a list (or a JSON list in text), or several columns joined by '|', one per option. */
  choices?: string[];
  id?: string;
}

/** A row as read, before mapping: `line` is the file line (JSONL, CSV) or the row number (Parquet, Hub). */
export type SourceRow = { line: number; record: Record<string, unknown> } | { line: number; error: string };

export interface BadRow {
  line: number;
  reason: string;
}

const DEFAULT_FIELD_MAP: FieldMap = { question: 'question', answer: 'answer', kind: 'kind', choices: ['choices'], id: 'id' };

const KEYS = ['question', 'answer', 'kind', 'choices', 'id'] as const;

/** `question=problem,answer=solution,choices=A|B|C|D`: unnamed fields keep their default column. */
export function parseFieldMap(text: string): FieldMap {
  const map: FieldMap = { ...DEFAULT_FIELD_MAP };
  for (const part of text.split(',').filter((p) => p.trim() !== '')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim() as (typeof KEYS)[number];
    const column = part.slice(eq + 1).trim();
    if (eq < 0 || !KEYS.includes(key) || column === '') {
      throw new BatonError({ code: 'run/config', message: `Field mapping "${part}": write field=column with field one of ${KEYS.join(', ')}.` });
    }
    if (key === 'choices') map.choices = column.split('|');
    else map[key] = column;
  }
  return map;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  // An object-valued answer (a code task's tests) stays whole, as JSON.
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
  return undefined;
}

function choicesOf(record: Record<string, unknown>, columns: string[]): string[] | undefined | string {
  if (columns.length > 1) {
    const values = columns.map((c) => text(record[c]));
    const missing = columns.filter((_, i) => values[i] === undefined);
    return missing.length ? `choice column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')} missing` : (values as string[]);
  }
  let value = record[columns[0]];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return `"${columns[0]}" is not a list of options (give a JSON list, or one column per option: choices=A|B|C|D)`;
    }
  }
  if (!Array.isArray(value) || value.length < 2 || value.some((v) => text(v) === undefined)) return `"${columns[0]}" must be a list of at least two options`;
  return value.map((v) => text(v)!);
}

/** Why a multiple-choice gold names none of the options, or undefined when it names one. */
function goldOutsideOptions(answer: string, choices: string[]): string | undefined {
  const letter = goldChoice(answer, choices);
  if (letter !== null && LETTERS.slice(0, choices.length).includes(letter)) return undefined;
  return `gold "${answer}" is not one of the ${choices.length} options (a letter A-${LETTERS[choices.length - 1]}, an index 0-${choices.length - 1} or an option's text)`;
}

function toTask(record: Record<string, unknown>, line: number, map: FieldMap, defaultKind: TaskKind | undefined, dataset: string): Task | string {
  const question = text(record[map.question]);
  if (question === undefined || question.trim() === '') return `no question in column "${map.question}"`;
  const rawAnswer = record[map.answer];
  let answer = text(rawAnswer);
  if (answer === undefined || answer.trim() === '') return `no answer in column "${map.answer}"`;
  const choices = map.choices ? choicesOf(record, map.choices) : undefined;
  if (typeof choices === 'string') return choices;
  if (choices && choices.length > LETTERS.length) return `${choices.length} options, where at most ${LETTERS.length} can be named by a letter`;
  // An empty kind cell is no kind, so --kind (or the answer) decides it.
  const kindValue = map.kind !== undefined ? text(record[map.kind])?.trim() || undefined : undefined;
  // Options make a row multiple-choice; a JSON number (1e-7 too) is a number however it is written.
  const suggested: TaskKind = choices ? 'mcq' : typeof rawAnswer === 'number' ? 'number' : kindOfAnswer(answer);
  const kind = (kindValue ?? defaultKind ?? suggested) as TaskKind;
  if (!TASK_KINDS.includes(kind) || kind === 'open') return `kind "${kindValue}" is not one of ${TASK_KINDS.filter((k) => k !== 'open').join(', ')}`;
  if (kind === 'mcq') {
    if (!choices) return `an mcq row needs its options (choices=${map.choices?.join('|') ?? 'COLUMN'})`;
    // An option given by its index (MMLU's 0-3) is the letter of that option.
    if (/^\d+$/.test(answer.trim()) && Number(answer) < choices.length) answer = LETTERS[Number(answer)];
    const outside = goldOutsideOptions(answer, choices);
    if (outside) return outside;
  }
  const id = map.id !== undefined ? text(record[map.id]) : undefined;
  return {
    question: choices ? formatMcqQuestion(question, choices) : question,
    answer,
    kind,
    dataset,
    itemId: id ?? String(line),
    ...(choices ? { choices } : {}),
  };
}

/**
 * Tasks of the rows that map, and every row that does not with its reason. Repeated ids are bad rows too.
 * A row without a kind takes `defaultKind`, or without one mcq when it has options, number for a JSON number,
 * else the kind its answer suggests (kindOfAnswer). A multiple-choice gold must name one of its options.
 */
export function mapRows(rows: Iterable<SourceRow>, map: FieldMap, options: { defaultKind?: TaskKind; dataset: string }): { tasks: Task[]; bad: BadRow[] } {
  const tasks: Task[] = [];
  const bad: BadRow[] = [];
  const ids = new Map<string, number>();
  for (const row of rows) {
    if ('error' in row) {
      bad.push({ line: row.line, reason: row.error });
      continue;
    }
    const task = toTask(row.record, row.line, map, options.defaultKind, options.dataset);
    if (typeof task === 'string') {
      bad.push({ line: row.line, reason: task });
      continue;
    }
    const first = ids.get(task.itemId!);
    if (first !== undefined) {
      bad.push({ line: row.line, reason: `id "${task.itemId}" was already used on line ${first}` });
      continue;
    }
    ids.set(task.itemId!, row.line);
    tasks.push(task);
  }
  return { tasks, bad };
}

/** A JSONL file's rows. */
export const jsonlRows = (content: string): SourceRow[] => jsonlLines(content);

/** A CSV file's rows, keyed by its header row; a record with the wrong number of fields is a bad row. */
export function csvRows(content: string): SourceRow[] {
  const [header, ...records] = parseCsvLines(content);
  if (!header) return [];
  return records.map(({ line, fields }) =>
    fields.length === header.fields.length
      ? { line, record: Object.fromEntries(header.fields.map((name, i) => [name, fields[i]])) }
      : { line, error: `${fields.length} fields where the header has ${header.fields.length}` },
  );
}

/** A Parquet file's rows (hyparquet; loaded on first use), numbered from 1. */
export async function parquetRows(content: ArrayBuffer): Promise<SourceRow[]> {
  const { parquetReadObjects } = await import('hyparquet');
  let records: Record<string, unknown>[];
  try {
    records = await parquetReadObjects({ file: content });
  } catch (e) {
    throw new BatonError({ code: 'data/invalid', message: `Not a Parquet file Baton can read: ${(e as Error).message}.`, cause: e });
  }
  return records.map((record, i) => ({ line: i + 1, record }));
}

/**
 * The error a caller raises when bad rows are not to be skipped: the first ones by line, and how to skip
 * them (`skip`: the CLI's flags by default; the Evaluate page names its own fields).
 */
export function badRowsError(
  source: string,
  bad: readonly BadRow[],
  unit: 'line' | 'row',
  skip = 'change --map, or pass --skip-bad to leave them out',
): BatonError {
  const shown = bad.slice(0, 10).map((b) => `${unit} ${b.line}: ${b.reason}`);
  const more = bad.length > shown.length ? ` (and ${bad.length - shown.length} more)` : '';
  return new BatonError({
    code: 'data/invalid',
    message: `${source}: ${bad.length} row${bad.length > 1 ? 's' : ''} cannot be used: ${shown.join('; ')}${more}. Fix them, ${skip}.`,
    data: { bad },
  });
}
