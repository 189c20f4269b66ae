/**
 * The conversation a follow-up question continues, in the bounded form the Conductor and the workers read
 * (docs/method.md, "Follow-up questions"). Bounded so that a long conversation costs the same per turn as a
 * short one: the last THREAD_TURNS turns, each question and answer cut to its own share, and the oldest
 * turns dropped first until the whole fits THREAD_CHARS (about 1,500 tokens). Cut text keeps its start and
 * end, where a question states its point and an answer its result.
 * Tested by test/unit/core/workflow/thread.test.ts.
 */

/** One earlier turn of a conversation: what was asked, and the final answer it got. */
export interface ThreadTurn {
  question: string;
  answer: string;
}

export const THREAD_TURNS = 4;
export const THREAD_CHARS = 6000;
const QUESTION_CHARS = 1000;
const ANSWER_CHARS = 2000;
const CUT = ' […] ';

/** `text` in at most `max` characters: its start and its end around a mark where the middle was left out. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - CUT.length);
  const head = Math.ceil(keep / 2);
  return text.slice(0, head) + CUT + text.slice(text.length - (keep - head));
}

/** The turns as they are sent: the last few, each cut to its share, the oldest dropped until they fit. Pure. */
export function boundThread(turns: readonly ThreadTurn[]): ThreadTurn[] {
  const kept = turns
    .filter((t) => t.question.trim() !== '')
    .slice(-THREAD_TURNS)
    .map((t) => ({ question: cutMiddle(t.question.trim(), QUESTION_CHARS), answer: cutMiddle(t.answer.trim(), ANSWER_CHARS) }));
  const size = (ts: ThreadTurn[]) => ts.reduce((n, t) => n + t.question.length + t.answer.length, 0);
  while (kept.length > 1 && size(kept) > THREAD_CHARS) kept.shift();
  return kept;
}

/** The thread as one block of a prompt, or '' when there is none: each turn's question and the answer it got. */
export function threadBlock(turns: readonly ThreadTurn[]): string {
  if (turns.length === 0) return '';
  const lines = turns.map((t, i) => `<turn ${i + 1}>\nQuestion: ${t.question}\nAnswer: ${t.answer || '(no answer)'}\n</turn ${i + 1}>`);
  return `<conversation_so_far>\nThe question continues a conversation. Its earlier turns, oldest first:\n${lines.join('\n')}\n</conversation_so_far>`;
}
