/**
 * renderWorkflow: a Workflow -> the three-list text the Conductor writes. parseWorkflow reads it back to
 * the same Workflow (tested with random workflows in test/unit/core/workflow/render.test.ts).
 */
import { isLatexCommandAt } from './python-literal.ts';
import type { Access, Workflow } from './types.ts';

export function renderWorkflow(w: Workflow): string {
  const ids = w.steps.map((s) => String(s.worker)).join(', ');
  const subtasks = w.steps.map((s) => pythonString(s.subtask)).join(', ');
  const access = w.steps.map((s) => renderAccess(s.access)).join(', ');
  return `model_id = [${ids}]\nsubtasks = [${subtasks}]\naccess_list = [${access}]`;
}

function renderAccess(a: Access): string {
  return a === 'all' ? '"all"' : `[${a.join(', ')}]`;
}

const NAMED: Record<string, string> = { '\n': 'n', '\t': 't', '\r': 'r' };

// The parser reads raw smart quotes as straight ones, so they are written as escapes.
const SMART_QUOTES = '\u2018\u2019\u201c\u201d';
// The parser drops thinking before it looks for lists, so a think tag inside a subtask is written escaped.
const THINK_TAG = /^<\/?think/i;

/** A double-quoted Python string literal for `s`. */
function pythonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const code = ch.charCodeAt(0);
    if (ch === '\\' || ch === '"') out += '\\' + ch;
    else if (ch in NAMED && !isLatexCommandAt(NAMED[ch] + s.slice(i + 1, i + 40), 0)) out += '\\' + NAMED[ch];
    else if (code < 0x20 || code === 0x7f || (ch === '<' && THINK_TAG.test(s.slice(i, i + 12)))) {
      out += '\\x' + code.toString(16).padStart(2, '0');
    } else if (SMART_QUOTES.includes(ch)) out += '\\u' + code.toString(16);
    else out += ch;
  }
  return out + '"';
}
