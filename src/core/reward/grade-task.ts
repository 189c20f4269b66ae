/**
 * Grading by the task's kind: code through a sandbox (asynchronous, when a CodeRunner is given), every
 * other gradable kind by gradeAnswer. What a run records as the reward's details comes from here.
 */
import type { Task } from '../task.ts';
import { gradeCode, type CodeGradeOptions, type CodeRunner } from './code/index.ts';
import { gradeAnswer, isGradable } from './grade.ts';

interface GradeTaskOptions extends CodeGradeOptions {
  /** The sandbox code answers run in; without one, code tasks are not graded. */
  codeRunner?: CodeRunner;
}

interface TaskGrade {
  correct: boolean;
  /** Kept on the episode's reward: the extracted and gold answers, or for code the program and the reason. */
  details: Record<string, unknown>;
}

type GradedTask = Pick<Task, 'kind' | 'answer' | 'choices'>;

/** True when gradeTask can grade `task` with `options`. */
export function canGradeTask(task: GradedTask, options: GradeTaskOptions = {}): boolean {
  if (task.kind === 'code') return options.codeRunner !== undefined && typeof task.answer === 'string' && task.answer.trim() !== '';
  return isGradable(task);
}

/** Grades `response` for `task`; throws a BatonError ('run/config') when canGradeTask says no. */
export async function gradeTask(response: string, task: GradedTask, options: GradeTaskOptions = {}): Promise<TaskGrade> {
  if (task.kind === 'code' && canGradeTask(task, options)) {
    const { correct, ...details } = await gradeCode(response, task.answer!, options.codeRunner!, options);
    return { correct, details };
  }
  const { correct, extracted, gold } = gradeAnswer(response, task);
  return { correct, details: { extracted, gold } };
}
