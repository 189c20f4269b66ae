/**
 * The character-level automaton of a Conductor's answer: optional free reasoning (reasoning.ts), then
 * the three lists (workflow-lists.ts), then the end. Its language is a subset of what parseWorkflow
 * accepts with the same workers, maxSteps and access mode.
 */
import { BatonError } from '../../errors/index.ts';
import { DEFAULT_MAX_STEPS, type AccessMode } from '../index.ts';
import type { CharAutomaton } from './char-automaton.ts';
import { opensWorkflow, REASONING_START, reasoningKey, stepReasoning, type ReasoningState } from './reasoning.ts';
import { LISTS_AT_HEAD, LISTS_OPEN, listsAccept, listsKey, listsLocalKey, stepLists, type ListsLimits, type ListsState } from './workflow-lists.ts';

export interface WorkflowFormat {
  /** Pool size: model ids are below it. */
  workers: number;
  maxSteps?: number;
  /** 'binary' (default, the paper's main method): "all" or []; 'positional': also earlier step indices. */
  access?: AccessMode;
  /** Free reasoning before the lists (default true); false: the answer is the lists alone. */
  allowReasoning?: boolean;
  /**
   * Longest subtask, in UTF-16 code units as written (escapes included), a character split across
   * tokens counting one per byte; it ends on a whole character (whole-characters.ts). Default 1500.
   */
  maxSubtaskChars?: number;
  /** Allow three empty lists (a recursion round's "keep the previous answer"). */
  recursion?: boolean;
  /**
   * Subtask texts by step index (the last for every later step), written as given: the Conductor then
   * chooses only the workers and what each sees (a routing Conductor, e.g. FIXED_SUBTASKS). Plain text:
   * no `"`, backslash or control character.
   */
  fixedSubtasks?: readonly string[];
  /**
   * Decode the text the format leaves no choice in by jump-forward (TokenConstraint.forced: its fewest
   * tokens, fed in one pass) rather than one sampled token at a time. A Conductor must be run as it was
   * trained: those trained before Baton decoded this way saw other spellings of the same text.
   */
  jumpForward?: boolean;
}

/** Fixed subtasks for a routing Conductor: the first step solves, later ones check what they see. */
export const FIXED_SUBTASKS: readonly string[] = ['Solve the question.', 'Check the answer above.'];

export const DEFAULT_MAX_SUBTASK_CHARS = 1500;

/** Access entries are tracked as bits of a 32-bit integer. */
const MAX_STEPS_LIMIT = 31;

export type WorkflowState = ReasoningState | ListsState;

export function createWorkflowAutomaton(format: WorkflowFormat): CharAutomaton<WorkflowState> {
  const limits = checkFormat(format);
  const start: WorkflowState = format.allowReasoning === false ? LISTS_AT_HEAD : REASONING_START;
  return {
    start: () => start,
    step(s, code) {
      if (s.kind === 'lists') return stepLists(s, code, limits);
      return opensWorkflow(s, code) ? LISTS_OPEN : stepReasoning(s, code);
    },
    accepts: (s) => s.kind === 'lists' && listsAccept(s),
    key: (s, horizon) => (s.kind === 'lists' ? listsKey(s, limits, horizon) : reasoningKey(s)),
    localKey: (s, horizon) => (s.kind === 'lists' ? listsLocalKey(s, limits, horizon) : undefined),
  };
}

function checkFormat(f: WorkflowFormat): ListsLimits {
  const limits: ListsLimits = {
    workers: f.workers,
    maxSteps: f.maxSteps ?? DEFAULT_MAX_STEPS,
    access: f.access ?? 'binary',
    maxSubtaskChars: f.maxSubtaskChars ?? DEFAULT_MAX_SUBTASK_CHARS,
    recursion: f.recursion ?? false,
    ...(f.fixedSubtasks ? { fixedSubtasks: f.fixedSubtasks } : {}),
  };
  const problems = [
    !(Number.isInteger(limits.workers) && limits.workers >= 1) && `workers must be a whole number >= 1 (got ${limits.workers})`,
    !(Number.isInteger(limits.maxSteps) && limits.maxSteps >= 1 && limits.maxSteps <= MAX_STEPS_LIMIT) &&
      `maxSteps must be a whole number from 1 to ${MAX_STEPS_LIMIT} (got ${limits.maxSteps})`,
    !(Number.isInteger(limits.maxSubtaskChars) && limits.maxSubtaskChars >= 1) && `maxSubtaskChars must be a whole number >= 1 (got ${limits.maxSubtaskChars})`,
    f.fixedSubtasks !== undefined &&
      // eslint-disable-next-line no-control-regex -- control characters are what it refuses
      !(f.fixedSubtasks.length > 0 && f.fixedSubtasks.every((t) => t.trim() !== '' && !/["\\\u0000-\u001f\u007f]/.test(t))) &&
      'fixedSubtasks must be non-empty texts without quotes, backslashes or control characters',
  ].filter((p): p is string => typeof p === 'string');
  if (problems.length > 0) {
    throw new BatonError({ code: 'data/invalid', message: `Workflow constraint: ${problems.join('; ')}.`, data: { ...limits } });
  }
  return limits;
}
