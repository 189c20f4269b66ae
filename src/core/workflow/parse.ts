/**
 * parseWorkflow: a Conductor's completion -> a validated Workflow, or an error a person can act on.
 * Never throws. Steps: drop hidden thinking (strip-thinking.ts), find the three labelled lists
 * (find-lists.ts, which reads them with python-literal.ts), then check them (validate.ts).
 * Tested by test/unit/core/workflow/parse.test.ts against a corpus of real-looking outputs.
 */
import { findLists, LIST_NAMES, type ListName } from './find-lists.ts';
import { stripThinking } from './strip-thinking.ts';
import type { ParseOptions, ParseResult } from './types.ts';
import { validateLists, type RawLists } from './validate.ts';

const FORMAT_HINT = 'end the answer with model_id = [...], subtasks = [...] and access_list = [...]';

export function parseWorkflow(text: string, opts: ParseOptions): ParseResult {
  try {
    return parseOrFail(text, opts);
  } catch (e) {
    // A bug here must cost one format error, not a training run.
    return { ok: false, error: `internal parser error (${(e as Error)?.message ?? String(e)}); please report it` };
  }
}

function parseOrFail(text: string, opts: ParseOptions): ParseResult {
  const found = findLists(stripThinking(text));
  const lists = {} as RawLists;
  const missing: ListName[] = [];
  for (const name of LIST_NAMES) {
    const list = found[name];
    // A list that is there but unreadable (often cut off mid-way) says more than the ones missing after it.
    if (list === undefined) missing.push(name);
    else if (!list.ok) return { ok: false, error: `could not read the ${name} list: ${list.problem}` };
    else lists[name] = list.items;
  }
  if (missing.length > 0) {
    return { ok: false, error: `missing the ${joinNames(missing)} ${missing.length === 1 ? 'list' : 'lists'}; ${FORMAT_HINT}` };
  }
  return validateLists(lists, opts);
}

function joinNames(names: ListName[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
