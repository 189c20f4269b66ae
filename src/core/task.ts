/** A question put to Baton, with its gold answer when it comes from a dataset. */
export type TaskKind =
  | 'math' // LaTeX answers, graded by mathematical equivalence (MATH500, AIME)
  | 'gsm8k' // a number, gold after '#### '
  | 'number' // a plain number
  | 'mcq' // multiple choice, a letter A-D (or option text)
  | 'exact' // exact string after light normalisation
  | 'code' // a program, graded by tests in a sandbox
  | 'literal' // a Python value, compared as Python's == compares it (CRUXEval's output prediction)
  | 'open'; // no gold answer: nothing to grade

export const TASK_KINDS: readonly TaskKind[] = ['math', 'gsm8k', 'number', 'mcq', 'exact', 'literal', 'code', 'open'];

export interface Task {
  question: string;
  answer?: string;
  kind: TaskKind;
  dataset?: string;
  itemId?: string;
  /** mcq: the option texts in order A, B, C, ... (lets a grader accept option text). */
  choices?: string[];
}

/** A task set's questions: those to train on, and those held out to measure on. */
export interface TaskSplit {
  train: Task[];
  heldOut: Task[];
}

/** The kind a gold answer suggests when none is given: a plain number is graded as one, anything else exactly. */
export function kindOfAnswer(answer: string): TaskKind {
  return /^-?[\d,]*\.?\d+$/.test(answer.trim()) ? 'number' : 'exact';
}
