/**
 * A conversation of the Ask page: its turns are episodes that name it (`Episode.conversation`). In a JSONL
 * export it travels as one line of its own beside its episodes, marked `"type": "conversation"`, which an
 * importer without conversations (the CLI's) passes over. Tested by test/unit/core/episodes/conversation-store.test.ts.
 */
import { accept, formatIssue, literal, object, string } from './checks.ts';

export interface Conversation {
  id: string;
  title: string;
  createdAt: string; // ISO 8601
  /** When its last turn was asked or it was renamed: the list shows the latest first. */
  updatedAt: string;
}

const TITLE_CHARS = 60;

/** A new conversation's title: the start of its first question, on one line. */
export function titleFrom(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_CHARS ? line || 'New conversation' : `${line.slice(0, TITLE_CHARS - 1).trimEnd()}…`;
}

/** A conversation as a search lists it: found in a turn rather than in its title, with the words in their place. */
export interface FoundConversation extends Conversation {
  /** A few words of the question or answer around the first match, on one line. */
  excerpt?: string;
}

const EXCERPT_BEFORE = 30;
const EXCERPT_AFTER = 60;

/**
 * Where `words` (lower case, trimmed) occur in the texts (a turn's question and final answer, the answer's
 * tags left out): the match with a little on either side; undefined where they do not.
 */
export function excerptOf(texts: readonly string[], words: string): string | undefined {
  for (const raw of texts) {
    const text = raw.replace(/<\/?answer>/g, '').replace(/\s+/g, ' ');
    const at = text.toLowerCase().indexOf(words);
    if (at === -1) continue;
    const start = Math.max(0, at - EXCERPT_BEFORE);
    const end = Math.min(text.length, at + words.length + EXCERPT_AFTER);
    return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
  }
  return undefined;
}

const nonEmpty = accept('a non-empty string', (v) => typeof v === 'string' && v.trim().length > 0);
const time = accept('an ISO time', (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)));
const line = object({ type: literal('conversation'), id: nonEmpty, title: string, createdAt: time, updatedAt: time });

/** Whether a parsed JSONL value is a conversation's line rather than an episode's. */
export function isConversationLine(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'conversation';
}

export function conversationToLine(c: Conversation): string {
  return JSON.stringify({ type: 'conversation', id: c.id, title: c.title, createdAt: c.createdAt, updatedAt: c.updatedAt });
}

/** A conversation's line checked, or the first bad field in words. */
export function validateConversationLine(value: unknown): { ok: true; conversation: Conversation } | { ok: false; message: string } {
  const issue = line(value, '');
  if (issue) return { ok: false, message: formatIssue(issue) };
  const { id, title, createdAt, updatedAt } = value as Conversation;
  return { ok: true, conversation: { id, title, createdAt, updatedAt } };
}
