/**
 * The three lists that end a Conductor's answer, written the way renderWorkflow writes them:
 *
 *   model_id = [2, 0]
 *   subtasks = ["Solve ...", "Check ..."]
 *   access_list = [[], "all"]
 *
 * - model_id holds 1..maxSteps ids (0 with `recursion`: three empty lists), each below `workers`, no
 *   leading zeros; its length fixes the length of the other two lists;
 * - a subtask is a double-quoted string of 1..maxSubtaskChars code units as written, not blank, with no
 *   raw control characters and no thinking tag; a backslash escapes the next character; or, with
 *   `fixedSubtasks`, exactly the text given for its step (the last one for every later step);
 * - an access entry is "all", ["all"] or [], or in positional mode a list of distinct earlier step
 *   indices;
 * - items are separated by a comma and at most one space; the lists by one line break; nothing follows.
 * Every text accepted here is read by parseWorkflow as the workflow it spells
 * (test/unit/core/workflow/constrain/workflow-constraint.test.ts checks this on random walks).
 */
import type { AccessMode } from '../index.ts';
import { charClass, CharClass, REPLACEMENT } from './char-class.ts';
import { completedTag, stepTag } from './think-tags.ts';

export interface ListsLimits {
  workers: number;
  maxSteps: number;
  access: AccessMode;
  maxSubtaskChars: number;
  recursion: boolean;
  /** Subtask texts by step index, the last for every later step: the Conductor chooses workers and access only. */
  fixedSubtasks?: readonly string[];
}

/** Where the text is inside the current list. */
const enum At {
  /** Writing the fixed text before the list's `[` (HEADS[list], up to `lit`). */
  Head,
  /** Just after the list's `[`. */
  Open,
  /** After `,`: a space or the next item. */
  Comma,
  /** After `, `: the next item. */
  Space,
  /** After an item: `,` or `]`. */
  AfterItem,
  /** Inside a model id: `num` so far. */
  ModelId,
  /** Inside a subtask string. */
  Text,
  /** Inside a subtask string, just after a backslash. */
  Escape,
  /** Writing the rest of a fixed subtask and its closing `"` (up to `lit`). */
  FixedText,
  /** Writing the rest of `"all"` after its `"` (up to `lit`). */
  QuotedAll,
  /** Writing the rest of `["all"]` after its `["` (up to `lit`). */
  ListedAll,
  /** Just after an access entry's own `[`. */
  EntryOpen,
  /** Inside an index of an access entry: `num` so far. */
  Index,
  /** After an index in an access entry: `,` or `]`. */
  EntryAfterIndex,
  EntryComma,
  EntrySpace,
  /** After the last list's `]`: only the end of the sequence. */
  End,
}

export interface ListsState {
  readonly kind: 'lists';
  /** 0 model_id, 1 subtasks, 2 access_list. */
  readonly list: number;
  readonly at: At;
  /** Items finished in this list; inside an item, its index (the step it describes). */
  readonly items: number;
  /** Steps: model_id's length, fixed when it closes; -1 before. */
  readonly steps: number;
  /** Position in the fixed text being written (At.Head, At.QuotedAll, At.ListedAll). */
  readonly lit: number;
  /** The number being written (At.ModelId, At.Index). */
  readonly num: number;
  /** Indices already in the current access entry, as bits. */
  readonly used: number;
  /** Code units written in the current subtask. */
  readonly chars: number;
  /** Whether the current subtask has a character that is surely not white space. */
  readonly filled: boolean;
  readonly tag: number;
}

const HEADS = ['model_id = [', '\nsubtasks = [', '\naccess_list = ['];
const QUOTED_ALL = 'all"';
const LISTED_ALL = 'all"]';

const C = { quote: 0x22, comma: 0x2c, space: 0x20, open: 0x5b, close: 0x5d, backslash: 0x5c, zero: 0x30 };

const BASE: ListsState = {
  kind: 'lists',
  list: 0,
  at: At.Head,
  items: 0,
  steps: -1,
  lit: 0,
  num: 0,
  used: 0,
  chars: 0,
  filled: false,
  tag: 0,
};

/** The lists before their first character (`m` of model_id). */
export const LISTS_AT_HEAD: ListsState = BASE;
/** The lists just after model_id's `[` (when the reasoning wrote `model_id = `). */
export const LISTS_OPEN: ListsState = { ...BASE, at: At.Open };

export function stepLists(s: ListsState, code: number, o: ListsLimits): ListsState | undefined {
  switch (s.at) {
    case At.Head: {
      const head = HEADS[s.list];
      if (head.charCodeAt(s.lit) !== code) return undefined;
      return s.lit + 1 === head.length ? { ...s, at: At.Open, lit: 0 } : { ...s, lit: s.lit + 1 };
    }
    case At.Open:
      if (code === C.close) return closeList(s, o);
      return startItem(s, code, o);
    case At.Comma:
      if (code === C.space) return { ...s, at: At.Space };
      return startItem(s, code, o);
    case At.Space:
      return startItem(s, code, o);
    case At.AfterItem:
      if (code === C.comma) return s.items < maxItems(s, o) ? { ...s, at: At.Comma } : undefined;
      if (code === C.close) return closeList(s, o);
      return undefined;
    case At.ModelId:
      return stepModelId(s, code, o);
    case At.Text:
      return stepText(s, code, o);
    case At.Escape:
      if (code < 0x20) return undefined;
      return countChar(s, At.Text, code, s.filled, o);
    case At.FixedText:
      return stepFixed(s, code, `${fixedSubtask(o.fixedSubtasks!, s.items)}"`);
    case At.QuotedAll:
      return stepFixed(s, code, QUOTED_ALL);
    case At.ListedAll:
      return stepFixed(s, code, LISTED_ALL);
    case At.EntryOpen:
      if (code === C.close) return finishItem(s);
      if (code === C.quote) return { ...s, at: At.ListedAll, lit: 0 };
      return startIndex(s, code, o);
    case At.Index:
      return stepIndex(s, code, o);
    case At.EntryAfterIndex:
      return stepAfterIndex(s, code);
    case At.EntryComma:
      if (code === C.space) return { ...s, at: At.EntrySpace };
      return startIndex(s, code, o);
    case At.EntrySpace:
      return startIndex(s, code, o);
    case At.End:
      return undefined;
  }
}

export function listsAccept(s: ListsState): boolean {
  return s.at === At.End;
}

function maxItems(s: ListsState, o: ListsLimits): number {
  return s.list === 0 ? o.maxSteps : s.steps;
}

function closeList(s: ListsState, o: ListsLimits): ListsState | undefined {
  if (s.list === 0) {
    if (s.items === 0 && !o.recursion) return undefined;
    return { ...s, list: 1, at: At.Head, lit: 0, items: 0, steps: s.items };
  }
  if (s.items !== s.steps) return undefined;
  if (s.list === 1) return { ...s, list: 2, at: At.Head, lit: 0, items: 0 };
  return { ...s, at: At.End };
}

function startItem(s: ListsState, code: number, o: ListsLimits): ListsState | undefined {
  if (s.list !== 0 && s.items >= s.steps) return undefined;
  if (s.list === 0) return isDigit(code) ? stepModelId({ ...s, at: At.ModelId, num: -1 }, code, o) : undefined;
  if (s.list === 1) {
    if (code !== C.quote) return undefined;
    return o.fixedSubtasks ? { ...s, at: At.FixedText, lit: 0 } : { ...s, at: At.Text, chars: 0, filled: false, tag: 0 };
  }
  if (code === C.quote) return { ...s, at: At.QuotedAll, lit: 0 };
  if (code === C.open) return { ...s, at: At.EntryOpen, used: 0 };
  return undefined;
}

/** The fixed subtask of step `index`: its own text, or the last one given. */
function fixedSubtask(texts: readonly string[], index: number): string {
  return texts[Math.min(index, texts.length - 1)];
}

function finishItem(s: ListsState): ListsState {
  return { ...s, at: At.AfterItem, items: s.items + 1, num: 0, used: 0 };
}

function stepFixed(s: ListsState, code: number, text: string): ListsState | undefined {
  if (text.charCodeAt(s.lit) !== code) return undefined;
  return s.lit + 1 === text.length ? finishItem(s) : { ...s, lit: s.lit + 1 };
}

function isDigit(code: number): boolean {
  return charClass(code) === CharClass.Digit;
}

/** A model id digit by digit (`num` -1 before the first digit); any other character ends it. */
function stepModelId(s: ListsState, code: number, o: ListsLimits): ListsState | undefined {
  if (!isDigit(code)) return stepLists(finishItem(s), code, o);
  if (s.num === 0) return undefined; // no leading zeros
  const num = (s.num < 0 ? 0 : s.num * 10) + (code - C.zero);
  return num < o.workers ? { ...s, num } : undefined;
}

function stepText(s: ListsState, code: number, o: ListsLimits): ListsState | undefined {
  if (code === C.quote) return s.filled ? finishItem({ ...s, chars: 0, tag: 0 }) : undefined;
  if (code < 0x20 || code === 0x7f) return undefined;
  if (code === C.backslash) return countChar(s, At.Escape, code, s.filled, o);
  const filled = s.filled || (code !== REPLACEMENT && charClass(code) !== CharClass.Space);
  return countChar(s, At.Text, code, filled, o);
}

/**
 * One more code unit of a subtask as written, within the length limit with room left for what must still
 * follow it (an escaped character after a backslash, a solid character in a blank subtask), so a walk
 * never reaches a subtask it cannot finish; and not completing a thinking tag.
 * Hot in mask walks, so the state is built field by field rather than spread.
 */
function countChar(s: ListsState, at: At, code: number, filled: boolean, o: ListsLimits): ListsState | undefined {
  const owed = (at === At.Escape ? 1 : 0) + (filled ? 0 : 1);
  if (s.chars + 1 + owed > o.maxSubtaskChars) return undefined;
  const tag = stepTag(s.tag, code);
  if (completedTag(tag)) return undefined;
  return {
    kind: 'lists',
    list: s.list,
    at,
    items: s.items,
    steps: s.steps,
    lit: s.lit,
    num: s.num,
    used: s.used,
    chars: s.chars + 1,
    filled,
    tag,
  };
}

// Access entries in positional mode: distinct indices of earlier steps. A digit is allowed only when
// some unused index still begins with the digits so far, so the walk never reaches a dead end.

function startIndex(s: ListsState, code: number, o: ListsLimits): ListsState | undefined {
  if (o.access !== 'positional' || !isDigit(code)) return undefined;
  return extendIndex(s, code - C.zero);
}

function extendIndex(s: ListsState, num: number): ListsState | undefined {
  const prefix = String(num);
  for (let k = 0; k < s.items; k++) {
    if (!(s.used & (1 << k)) && String(k).startsWith(prefix)) return { ...s, at: At.Index, num };
  }
  return undefined;
}

function stepIndex(s: ListsState, code: number, o: ListsLimits): ListsState | undefined {
  if (isDigit(code)) return s.num === 0 ? undefined : extendIndex(s, s.num * 10 + (code - C.zero));
  if (s.num >= s.items || s.used & (1 << s.num)) return undefined; // a prefix of an index, not one
  return stepLists({ ...s, at: At.EntryAfterIndex, used: s.used | (1 << s.num), num: 0 }, code, o);
}

function stepAfterIndex(s: ListsState, code: number): ListsState | undefined {
  if (code === C.close) return finishItem(s);
  if (code !== C.comma) return undefined;
  for (let k = 0; k < s.items; k++) if (!(s.used & (1 << k))) return { ...s, at: At.EntryComma };
  return undefined;
}

/** The cache key: every field, with the subtask length folded while its limit is beyond `horizon`. */
export function listsKey(s: ListsState, o: ListsLimits, horizon: number): string {
  return `l${s.list},${s.at},${s.items},${s.steps},${s.lit},${s.num},${s.used},${textKey(s, o, horizon)}`;
}

/** Inside a subtask, texts without a `"` never leave it: they depend on the subtask's fields alone. */
export function listsLocalKey(s: ListsState, o: ListsLimits, horizon: number): { key: string; barrier: string } | undefined {
  if (s.at !== At.Text && s.at !== At.Escape) return undefined;
  return { key: `t${s.at},${textKey(s, o, horizon)}`, barrier: '"' };
}

function textKey(s: ListsState, o: ListsLimits, horizon: number): string {
  const chars = o.maxSubtaskChars - s.chars > horizon ? -1 : s.chars;
  return `${chars},${s.filled ? 1 : 0},${s.tag}`;
}
