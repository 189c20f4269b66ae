/**
 * Grades a response against a task's gold answer, by the task's kind. Code and open-ended tasks
 * are not graded here: code runs its tests in a sandbox (./code, through gradeTask), and an open
 * question has no gold.
 */
import { BatonError } from '../errors/index.ts';
import type { Task, TaskKind } from '../task.ts';
import { goldChoice } from './choice.ts';
import { extractAnswer } from './extract-answer.ts';
import { mathEquivalent } from './math-equivalent.ts';
import { canonicalDecimal, lastNumber, parseNumber, plainNumber } from './numbers.ts';
import { numbersClose } from './numeric-close.ts';
import { parsePythonLiteral, pythonEqual } from './python-literal.ts';

interface GradeResult {
  correct: boolean;
  /** The answer found in the response; null when it holds none (a format miss). */
  extracted: string | null;
  /** The gold answer as compared: GSM8K's number after `#### ` (without `$` or thousands commas), an option letter, ... */
  gold: string;
}

export type GradableKind = Exclude<TaskKind, 'code' | 'open'>;

export function isGradable(task: Pick<Task, 'kind' | 'answer'>): task is Task & { kind: GradableKind; answer: string } {
  return task.kind !== 'code' && task.kind !== 'open' && typeof task.answer === 'string' && task.answer.trim() !== '';
}

/** GSM8K stores a worked solution whose last line is `#### n`; a bare number stands as it is. */
export function gsm8kGold(answer: string): string {
  const i = answer.lastIndexOf('####');
  return (i < 0 ? answer : answer.slice(i + 4)).trim();
}

/** A number written in prose or LaTeX (`$1,200`, `18 dollars`, `\frac{3}{4}`) against a gold number. */
function numberMatches(extracted: string, gold: string): boolean {
  const goldValue = parseNumber(gold);
  const token = parseNumber(extracted) !== null ? extracted : lastNumber(extracted.replace(/\\!/g, ''));
  const value = token === null ? null : parseNumber(token);
  // Two numerals are the same only when equal: the tolerance, meant for computed values, would let
  // 1000001 pass for 1000000.
  const written = token === null ? null : canonicalDecimal(plainNumber(token));
  const goldWritten = canonicalDecimal(gold);
  const same = written !== null && goldWritten !== null ? written === goldWritten : goldValue !== null && value !== null && numbersClose(value, goldValue);
  return same || mathEquivalent(extracted, gold);
}

// Case, spacing, and the quotes, emphasis or full stop around a short answer are not part of it.
const collapse = (s: string) =>
  s
    .trim()
    .replace(/^["'\u201c\u2018`*_]+|["'\u201d\u2019`*_.]+$/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

function notGradable(task: Pick<Task, 'kind' | 'answer'>): BatonError {
  const why =
    task.kind === 'code'
      ? 'code answers are graded by running their tests in a sandbox (gradeTask with a CodeRunner), not by gradeAnswer'
      : task.kind === 'open'
        ? 'an open question has no gold answer to grade against'
        : `the task (kind "${task.kind}") has no gold answer; give it one or mark it "open"`;
  return new BatonError({ code: 'run/config', message: `Cannot grade: ${why}.`, data: { kind: task.kind } });
}

/** Grades `response` for `task`. Throws a BatonError ('run/config') for code, open, or gold-less tasks; see isGradable. */
export function gradeAnswer(response: string, task: Pick<Task, 'kind' | 'answer' | 'choices'>): GradeResult {
  if (!isGradable(task)) throw notGradable(task);
  const extracted = extractAnswer(response, task.kind, task.choices);
  switch (task.kind) {
    case 'mcq': {
      const gold = goldChoice(task.answer, task.choices) ?? task.answer.trim();
      return { correct: extracted !== null && extracted === gold, extracted, gold };
    }
    case 'gsm8k':
    case 'number': {
      const gold = plainNumber(task.kind === 'gsm8k' ? gsm8kGold(task.answer) : task.answer.trim());
      return { correct: extracted !== null && numberMatches(extracted, gold), extracted, gold };
    }
    case 'exact': {
      const gold = task.answer.trim();
      return { correct: extracted !== null && collapse(extracted) === collapse(gold), extracted, gold };
    }
    case 'literal': {
      const gold = task.answer.trim();
      const goldValue = parsePythonLiteral(gold);
      // Text that is no literal is the string it spells, its quotes dropped (`"answer": "abc"` for 'abc').
      const value = extracted === null ? null : (parsePythonLiteral(extracted) ?? { type: 'str' as const, value: extracted });
      const correct = value !== null && (goldValue !== null ? pythonEqual(value, goldValue) : extracted === gold);
      return { correct, extracted, gold };
    }
    case 'math': {
      const gold = task.answer.trim();
      return { correct: extracted !== null && mathEquivalent(extracted, gold), extracted, gold };
    }
  }
}
