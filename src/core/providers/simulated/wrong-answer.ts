import type { Task } from '../../task.ts';
import { choiceLetters } from './gold.ts';

const NUMBER = /^-?\d+(\.\d+)?$/;

function nearbyNumber(gold: string, step: number): string {
  const value = Number(gold);
  if (Number.isInteger(value)) return String(value + step);
  const decimals = gold.split('.')[1]?.length ?? 0;
  return (value * (1 + step / 20)).toFixed(decimals);
}

/**
 * A wrong answer of the right type: another letter for mcq, a nearby number for numbers, the first integer
 * nudged inside a LaTeX answer. `draw` in [0, 1) picks among the candidates; `isRight` weeds out
 * candidates a grader would still accept (e.g. an equivalent form).
 */
export function plausibleWrongAnswer(task: Task, gold: string, draw: number, isRight: (a: string) => boolean): string {
  let candidates: string[];
  if (task.kind === 'mcq') {
    candidates = choiceLetters(task).filter((l) => l !== gold);
  } else if (NUMBER.test(gold)) {
    candidates = [-3, -2, -1, 1, 2, 3].map((s) => nearbyNumber(gold, s));
  } else if (/\d+/.test(gold)) {
    candidates = [1, 2, 3, -1].map((s) => gold.replace(/\d+/, (n) => String(Math.max(0, Number(n) + s))));
  } else {
    candidates = [`${gold}+1`, `2${gold}`, `-${gold}`];
  }
  const start = Math.floor(draw * candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[(start + i) % candidates.length];
    if (c !== gold && !isRight(c)) return c;
  }
  return 'none of the above';
}
