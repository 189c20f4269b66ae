/**
 * Format-constrained sampling: token masks that keep generated text inside a fixed language, here a
 * Conductor's workflow. Environment-neutral (no GPU): the engine applies the masks to logits.
 */
export { createWorkflowConstraint, type WorkflowConstraint } from './workflow-constraint.ts';
export { createWorkflowAutomaton, DEFAULT_MAX_SUBTASK_CHARS, FIXED_SUBTASKS, type WorkflowFormat, type WorkflowState } from './workflow-automaton.ts';
export { createTokenConstraint, type ConstrainedState, type TokenConstraint, type TokenVocab } from './token-constraint.ts';
export { walkText, type CharAutomaton } from './char-automaton.ts';
export { tokenVocabOf, type VocabTokenizer } from './token-vocab.ts';
export { workflowTokenBound } from './workflow-token-bound.ts';
export { workflowConstraintFor } from './constraint-cache.ts';
