/**
 * One replay row per question (docs: data/README.md, "Replay records"): the question, its gold, and per model
 * the answer-bearing end of its response, Baton's grade of it, tokens and dollars. The response is cut to its
 * shortest tail from which Baton's grader reads the same answer, so a replay grades exactly as the full
 * response would.
 */
import { gzipSync, strToU8 } from 'fflate';
import type { Task } from '../../src/core/task.ts';
import { extractAnswer, gradeAnswer } from '../../src/core/reward/index.ts';
import type { RecordedQuestion } from '../../src/core/providers/replay/index.ts';

/** The shape data/<source>/<set>.jsonl.gz holds, as core's replay reads it. */
export type ReplayRow = RecordedQuestion;

type GradedTask = Pick<Task, 'kind' | 'answer' | 'choices'>;

/** Where a response may be cut: at its last JSON `"answer"` key, then before its last few lines, then its last characters. */
function tails(response: string): string[] {
  const cuts: number[] = [];
  const key = response.lastIndexOf('"answer"');
  if (key >= 0) cuts.push(key);
  const lines = [...response.matchAll(/\n/g)].map((m) => m.index + 1);
  for (const n of [1, 2, 4, 8]) if (lines.length >= n) cuts.push(lines[lines.length - n]);
  for (const n of [300, 1000, 3000]) if (response.length > n) cuts.push(response.length - n);
  return cuts.filter((c) => c > 0).map((c) => response.slice(c));
}

/**
 * The shortest tail of `response` whose extracted answer is the full response's (so its grade is the same:
 * a grade depends only on the extracted answer and the gold), and Baton's grade of the response.
 */
export function answerPart(response: string, task: GradedTask): { text: string; correct: boolean; extracted: string | null } {
  const { correct, extracted } = gradeAnswer(response, task);
  const tail = tails(response)
    .sort((a, b) => a.length - b.length)
    .find((t) => t.trim() !== '' && extractAnswer(t, task.kind, task.choices) === extracted);
  return { text: tail ?? response, correct, extracted };
}

/** Dollars to a few significant digits: enough for sums over thousands of calls, short in the files. */
export const roundUsd = (usd: number) => Number(usd.toPrecision(4));

/** The rows as gzipped JSON lines; fixed mtime so the same rows give the same bytes. */
export function gzipJsonl(rows: readonly ReplayRow[]): Uint8Array {
  return gzipSync(strToU8(rows.map((r) => JSON.stringify(r)).join('\n') + '\n'), { level: 9, mtime: 0 });
}
