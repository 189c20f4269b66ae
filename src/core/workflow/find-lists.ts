/**
 * Finds the three labelled lists (`model_id`, `subtasks`, `access_list`) in a Conductor's answer.
 *
 * A label is matched case-insensitively in its common spellings (model_id, model ids, modelIds,
 * subtask_list, access, access lists, model\_id, ...; a prefix like `final_` is fine), possibly quoted
 * (JSON), bold, italic or in backticks, followed by `:` or `=` (a Python annotation like
 * `model_id: list[int] =` too; a few other separators; or just a line break, as under a heading), then
 * by the list's `[` (or a tuple's `(`), possibly after markdown or a code-fence opener.
 *
 * Which occurrence wins: the Conductor often drafts lists while reasoning and may explain its lists after
 * writing them, so
 * - model_id is the LAST occurrence whose list can be read: a redraft restates it;
 * - subtasks and access_list are the FIRST readable occurrences after that model_id (the same final
 *   block), so an explanation after the lists ("the access: [0] of step 2 ...") cannot replace them;
 *   when none follows it (keys in another order), the last readable one before it;
 * - a list read only by the comma-splitting fallback (bare words) loses to any list read properly,
 *   since prose like `the subtasks: [see above]` also splits on commas;
 * - a label inside an earlier list (quoted in a subtask's text) is not an occurrence;
 * - a list left open after the chosen model_id, with no readable one of its name after it (the
 *   completion was cut off while writing its final lists), is reported rather than replaced by a draft
 *   from the reasoning: a draft's subtasks paired with the final model ids is a workflow nobody wrote.
 * When no occurrence of a label can be read, the last one's problem is reported.
 */
import { findClosingBracket, MAX_DEPTH, nestedDeeperThan, readPythonLiteral, type PyValue } from './python-literal.ts';

export type ListName = 'model_id' | 'subtasks' | 'access_list';

export const LIST_NAMES: readonly ListName[] = ['model_id', 'subtasks', 'access_list'];

// A word break inside a label: space, underscore (maybe markdown-escaped as \_), hyphen, or nothing.
const JOIN = '(?:\\\\?[ _-])?';
const LABELS: Record<ListName, string> = {
  model_id: `model${JOIN}ids?(?:${JOIN}list)?`,
  subtasks: `sub${JOIN}tasks?(?:${JOIN}list)?`,
  access_list: `access(?:${JOIN}lists?)?`,
};

// Each piece below matches any character in one way only, so a long run of spaces or backticks cannot
// make the regex backtrack for ages.
// Quotes (JSON keys), bold, backticks and spaces around the label.
const DECORATION = '[ \\t*_`"\'\u201c\u201d\u2018\u2019]*';
// A Python annotation: `model_id: list[int] = [...]`.
const ANNOTATION = '(?::[ \\t]*[A-Za-z]+(?:\\[[^\\]\\n]*\\])?[ \\t]*(?==))?';
// `=` `:` (also full-width), `:=`, `->`, `=>`, `>` (XML-ish tags), or a line break after a heading-like label.
const SEPARATOR = '(?:=>|->|:=|[:=>\\uff1a]|(?=\\r?\\n))';
// Spaces, bold, backticks and a fence's language tag between the separator and the list.
const BEFORE_LIST = '(?:[\\s*`]|(?<=`)[A-Za-z]+)*';
const OPEN = '[[(]'; // a tuple is read as a list

function labelPattern(name: ListName): RegExp {
  return new RegExp(`(?<![A-Za-z0-9])${LABELS[name]}(?![A-Za-z0-9])${DECORATION}${ANNOTATION}${SEPARATOR}${BEFORE_LIST}${OPEN}`, 'gi');
}

const PATTERNS = Object.fromEntries(LIST_NAMES.map((n) => [n, labelPattern(n)])) as Record<ListName, RegExp>;

type FoundList = { ok: true; items: PyValue[] } | { ok: false; problem: string } | undefined;

interface Occurrence {
  name: ListName;
  labelAt: number;
  unclosed?: boolean;
  read: { ok: true; items: PyValue[]; guessed: boolean } | { ok: false; problem: string };
}

/** The lists in `text`, by name; undefined where a label never occurs before a `[`. */
export function findLists(text: string): Record<ListName, FoundList> {
  const all = readOccurrences(text);
  const readable = (name: ListName) => all.filter((o) => o.name === name && o.read.ok);
  const model = pick(readable('model_id'), 'last');
  const afterModel = (o: Occurrence) => !model || o.labelAt > model.labelAt;
  const cutOff = all.find((o) => o.unclosed && afterModel(o) && !readable(o.name).some(afterModel));
  const found = {} as Record<ListName, FoundList>;
  for (const name of LIST_NAMES) {
    const ok = readable(name);
    const after = model ? ok.filter(afterModel) : [];
    const chosen = name === 'model_id' ? model : after.length > 0 ? pick(after, 'first') : pick(ok, 'last');
    const failed = all.filter((o) => o.name === name).pop();
    found[name] = chosen?.read.ok ? { ok: true, items: chosen.read.items } : failed?.read;
  }
  if (cutOff) found[cutOff.name] = cutOff.read;
  return found;
}

/** The first or last occurrence, preferring lists read properly to lists only split on commas. */
function pick(list: Occurrence[], which: 'first' | 'last'): Occurrence | undefined {
  const proper = list.filter((o) => o.read.ok && !o.read.guessed);
  const pool = proper.length > 0 ? proper : list;
  return which === 'first' ? pool[0] : pool[pool.length - 1];
}

/** Every labelled list in order of position, read or with its problem; labels inside a list are skipped. */
function readOccurrences(text: string): Occurrence[] {
  const starts: Array<{ name: ListName; labelAt: number; open: number }> = [];
  for (const name of LIST_NAMES) {
    const re = PATTERNS[name];
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) starts.push({ name, labelAt: m.index, open: m.index + m[0].length - 1 });
  }
  starts.sort((a, b) => a.labelAt - b.labelAt);

  const occurrences: Occurrence[] = [];
  let consumedUntil = 0;
  for (const { name, labelAt, open } of starts) {
    if (labelAt < consumedUntil) continue;
    const close = findClosingBracket(text, open);
    if (close < 0) {
      const problem = `its "${text[open]}" (${where(text, open)}) is never closed (unbalanced brackets or an unclosed quote)`;
      occurrences.push({ name, labelAt, unclosed: true, read: { ok: false, problem } });
      continue;
    }
    consumedUntil = close + 1;
    const read = readList(text.slice(open, close + 1));
    occurrences.push({
      name,
      labelAt,
      read: read.ok ? read : { ok: false, problem: `${read.problem} (${where(text, open + read.at)})` },
    });
  }
  return occurrences;
}

/** Line and column of s[i], 1-based, for messages. */
function where(s: string, i: number): string {
  const before = s.slice(0, i);
  const line = before.split('\n').length;
  return `line ${line}, column ${i - before.lastIndexOf('\n')}`;
}

type ListRead = { ok: true; items: PyValue[]; guessed: boolean } | { ok: false; problem: string; at: number };

/** A balanced `[...]` as a list: as a Python literal, else as JSON, else split on commas. */
function readList(slice: string): ListRead {
  const py = readPythonLiteral(slice);
  if (py.ok && Array.isArray(py.value)) return { ok: true, items: py.value, guessed: false };
  const json = readJson(slice);
  if (json) return { ok: true, items: json, guessed: false };
  const split = splitOnCommas(slice);
  if (split) return { ok: true, items: split, guessed: true };
  return py.ok ? { ok: false, problem: 'it is not a list', at: 0 } : { ok: false, problem: py.error, at: py.at };
}

function readJson(slice: string): PyValue[] | undefined {
  try {
    const value: unknown = JSON.parse(slice.replace(/[\u201c\u201d]/g, '"'));
    // JSON.parse takes any depth; the checks downstream recurse, so keep Python's limit.
    return Array.isArray(value) && !nestedDeeperThan(value as PyValue[], MAX_DEPTH) ? (value as PyValue[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Last resort, for a flat list of bare words (`[all, all]`, `[Solve it, Check it]`): items split on
 * commas, quotes trimmed, integers read as numbers. Nested or quoted-with-commas lists are not guessed at.
 */
function splitOnCommas(slice: string): PyValue[] | undefined {
  const inner = slice.slice(1, -1);
  if (/[[\](){}"'\u201c\u201d\u2018\u2019]/.test(inner)) return undefined;
  const parts = inner.split(',').map((p) => p.trim());
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.some((p) => p === '' || /^[.\u2026]+$/.test(p))) return undefined; // `[...]`: a placeholder, not a list
  return parts.map((p) => p.replace(/^[`*]+|[`*]+$/g, '')).map((p) => (/^-?\d+$/.test(p) ? Number(p) : p));
}
