/**
 * The longest a workflow can be when the constraint allows no reasoning: three lists of at most
 * maxSteps items, each subtask at most maxSubtaskChars (or its fixed text). Every token of a constrained generation
 * writes at least one character, so this many new tokens (plus one for end-of-sequence) always
 * reach the end: a Conductor given this budget never stops mid-list.
 */
import { DEFAULT_MAX_SUBTASK_CHARS, type WorkflowFormat } from './workflow-automaton.ts';
import { DEFAULT_MAX_STEPS } from '../index.ts';

const digits = (n: number) => String(Math.max(0, n)).length;

/** Items are separated by ', ' at most; each list is '<head>[' ... ']'. */
function listChars(head: string, items: number, itemChars: number): number {
  return head.length + items * (itemChars + 2) + 1;
}

export function workflowTokenBound(format: Omit<WorkflowFormat, 'allowReasoning'>): number {
  const steps = format.maxSteps ?? DEFAULT_MAX_STEPS;
  const texts = format.fixedSubtasks;
  const subtask = (texts ? Math.max(...texts.map((t) => t.length)) : (format.maxSubtaskChars ?? DEFAULT_MAX_SUBTASK_CHARS)) + 2; // with its quotes
  // An access entry: '["all"]', or (positional) '[' and the earlier indices, each with ', '.
  const entry = Math.max('["all"]'.length, 2 + (steps - 1) * (digits(steps - 1) + 2));
  const chars =
    listChars('model_id = [', steps, digits(format.workers - 1)) + listChars('\nsubtasks = [', steps, subtask) + listChars('\naccess_list = [', steps, entry);
  return chars + 1;
}
