/**
 * The free-text reasoning a Conductor may write before its lists. It is free except where a piece of it
 * could change what parseWorkflow reads (src/core/workflow/find-lists.ts, strip-thinking.ts):
 * - a `[` or `(` right after a separator (`:` `=` `>` `：` or a line break, then only spaces, `*` or a
 *   backtick and a fence's language tag) is refused, since after a label such as `subtasks:` it would
 *   open a list the parser reads instead of the real one; so the reasoning holds no labelled list;
 * - thinking tags are followed: inside `<think>...</think>` anything goes (the parser drops it), and the
 *   workflow may only begin outside one, since an unclosed tag hides everything after it;
 * - the workflow begins where a line starts with `model_id = [` (the reasoning itself cannot write
 *   that `[`, so there is no ambiguity).
 * All classes are conservative: a partial UTF-8 character (U+FFFD) changes nothing.
 */
import { charClass, CharClass, REPLACEMENT } from './char-class.ts';
import { completedTag, stepTag } from './think-tags.ts';

/** How close the text is to a place where a list could open. */
const enum Danger {
  /** A `[` or `(` here opens no labelled list. */
  Safe = 0,
  /** After a separator, possibly spaces or `*`: a list may open here. */
  AfterSeparator = 1,
  /** After a separator and a backtick (and maybe a fence's language letters): a list may open here. */
  AfterBacktick = 2,
}

export interface ReasoningState {
  readonly kind: 'reasoning';
  readonly danger: Danger;
  /** How much of WORKFLOW_HEAD the current line has written; -1 when the line cannot begin it. */
  readonly head: number;
  readonly tag: number;
  readonly inThinking: boolean;
  /** The danger just before the `<` of the tag under way, in force again if that tag hides text. */
  readonly beforeTag: Danger;
  /** The danger before the open thinking block, in force again when it closes. */
  readonly beforeThinking: Danger;
}

/** What starts the workflow at the beginning of a line; the `[` after it enters the lists. */
const WORKFLOW_HEAD = 'model_id = ';

const OPEN_BRACKET = 0x5b;
const OPEN_PAREN = 0x28;
const BACKTICK = 0x60;

export const REASONING_START: ReasoningState = {
  kind: 'reasoning',
  danger: Danger.AfterSeparator, // the prompt's prefill may end with a label, so assume the worst
  head: 0,
  tag: 0,
  inThinking: false,
  beforeTag: Danger.AfterSeparator,
  beforeThinking: Danger.AfterSeparator,
};

/** Whether the reasoning has written a line's `model_id = ` so that a `[` now starts the lists. */
export function opensWorkflow(s: ReasoningState, code: number): boolean {
  return code === OPEN_BRACKET && !s.inThinking && s.head === WORKFLOW_HEAD.length;
}

export function stepReasoning(s: ReasoningState, code: number): ReasoningState | undefined {
  const tag = stepTag(s.tag, code);
  const beforeTag = code === 0x3c ? s.danger : s.beforeTag;
  const done = completedTag(tag);
  if (s.inThinking) {
    if (done !== 'close') return tag === s.tag ? s : { ...s, tag };
    return { ...s, tag, beforeTag, inThinking: false, danger: s.beforeThinking, head: -1 };
  }
  if ((code === OPEN_BRACKET || code === OPEN_PAREN) && s.danger !== Danger.Safe) return undefined;
  if (done === 'open') return { ...s, tag, beforeTag, inThinking: true, beforeThinking: beforeTag, head: -1 };
  // An orphan closing tag makes the parser drop all text before it: the text starts afresh.
  if (done === 'close') return { ...REASONING_START, tag };
  const danger = nextDanger(s.danger, code);
  const head = nextHead(s.head, code);
  // Most characters of prose change nothing: keep the object, as a walk over the vocabulary makes many steps.
  if (tag === s.tag && beforeTag === s.beforeTag && danger === s.danger && head === s.head) return s;
  return { kind: 'reasoning', danger, head, tag, inThinking: false, beforeTag, beforeThinking: s.beforeThinking };
}

function nextHead(head: number, code: number): number {
  if (code === 0x0a) return 0;
  return head >= 0 && head < WORKFLOW_HEAD.length && WORKFLOW_HEAD.charCodeAt(head) === code ? head + 1 : -1;
}

// The parser's separators: `:` `=` `>` (ends `->` and `=>`) and the full-width colon; a line break too.
function isSeparator(code: number): boolean {
  return code === 0x3a || code === 0x3d || code === 0x3e || code === 0xff1a || code === 0x0a;
}

function nextDanger(d: Danger, code: number): Danger {
  if (isSeparator(code)) return Danger.AfterSeparator;
  if (code === REPLACEMENT) return d;
  if (d === Danger.Safe) return Danger.Safe;
  const cls = charClass(code);
  if (cls === CharClass.Space || code === 0x2a) return Danger.AfterSeparator;
  if (code === BACKTICK) return Danger.AfterBacktick;
  if (cls === CharClass.AsciiLetter && d === Danger.AfterBacktick) return Danger.AfterBacktick;
  return Danger.Safe;
}

export function reasoningKey(s: ReasoningState): string {
  return `r${s.danger}${s.head},${s.tag}${s.inThinking ? 't' : ''}${s.beforeTag}${s.beforeThinking}`;
}
