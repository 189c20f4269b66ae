import { validateEpisode, type Validation } from './episode-schema.ts';
import type { Episode } from './types.ts';

/** The one serialisation of an episode, so the browser and the CLI write the same lines. */
export function episodeToLine(ep: Episode): string {
  return JSON.stringify(ep);
}

/** A line's JSON value, or why it is not JSON. */
export function parseJsonLine(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: `not valid JSON (${(e as Error).message})` };
  }
}

export function parseEpisodeLine(text: string): Validation {
  const parsed = parseJsonLine(text);
  return parsed.ok ? validateEpisode(parsed.value) : parsed;
}

interface NumberedLine {
  /** 1-based, counting blank lines too, so it matches an editor's line numbers. */
  number: number;
  text: string;
}

/**
 * The non-blank lines of a JSONL source: a whole text, or an async sequence of lines (as readline or
 * `exportJsonl` yield them; a trailing newline on an item is ignored).
 */
export async function* numberedLines(source: AsyncIterable<string> | string): AsyncGenerator<NumberedLine> {
  let number = 0;
  const items: Iterable<string> | AsyncIterable<string> = typeof source === 'string' ? source.split('\n') : source;
  for await (const item of items) {
    number++;
    const text = item.replace(/\r?\n$/, '').replace(/\r$/, '');
    if (text.trim() !== '') yield { number, text };
  }
}
