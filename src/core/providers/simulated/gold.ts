import type { Task } from '../../task.ts';

const LETTERS = 'ABCDEFGHIJ';

/** The letter of a multiple-choice task's gold answer ('B', or option text found in `choices`). */
export function goldLetter(task: Task): string | undefined {
  const answer = (task.answer ?? '').trim();
  const letter = /^\(?([A-J])\)?\.?$/i.exec(answer);
  if (letter) return letter[1].toUpperCase();
  const index = task.choices?.findIndex((c) => c.trim() === answer) ?? -1;
  return index >= 0 ? LETTERS[index] : undefined;
}

/** The answer a right response would give: the letter for mcq, the number after '####' for gsm8k. */
export function goldAnswer(task: Task): string | undefined {
  if (task.answer === undefined) return undefined;
  if (task.kind === 'mcq') return goldLetter(task);
  if (task.kind === 'gsm8k') {
    const after = task.answer.split('####').pop() ?? '';
    return after.trim().replace(/,/g, '');
  }
  return task.answer.trim();
}

export function choiceLetters(task: Task): string[] {
  return LETTERS.slice(0, Math.max(task.choices?.length ?? 4, 2)).split('');
}
