/**
 * An evaluation directory's append-only logs: OUT/episodes.jsonl (one finished episode a line) and
 * OUT/calls.jsonl (one worker call a line, written as each returns). A kill can cut the last line in
 * half; reading drops such a line (and only a last one), so a resume starts from what was whole.
 */
import { appendFile, readFile, truncate } from 'node:fs/promises';
import { episodeToLine, parseEpisodeLine, type Episode } from '../../core/episodes/index.ts';
import type { LoggedCall } from '../../core/bench/index.ts';
import { CliError } from '../cli/index.ts';

async function readLines<T>(file: string, parse: (line: string) => T | undefined): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  // Every line is written with its newline in one append: text after the last newline is a cut write.
  const whole = text.slice(0, text.lastIndexOf('\n') + 1);
  if (whole.length < text.length) await truncate(file, Buffer.byteLength(whole, 'utf8'));
  return whole.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    const value = parse(line);
    if (value === undefined) throw new CliError(`${file}, line ${i + 1}: not a line Baton wrote; the evaluation directory is damaged.`);
    return [value];
  });
}

export const readEpisodeLog = (file: string) =>
  readLines<Episode>(file, (line) => {
    const v = parseEpisodeLine(line);
    return v.ok ? v.episode : undefined;
  });

export const readCallLog = (file: string) =>
  readLines<LoggedCall>(file, (line) => {
    try {
      const v = JSON.parse(line) as LoggedCall;
      return typeof v.key === 'string' && typeof v.result?.text === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  });

export const appendEpisode = (file: string, e: Episode) => appendFile(file, `${episodeToLine(e)}\n`, 'utf8');
export const appendCall = (file: string, c: LoggedCall) => appendFile(file, `${JSON.stringify(c)}\n`, 'utf8');
