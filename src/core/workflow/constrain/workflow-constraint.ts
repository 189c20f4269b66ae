/**
 * createWorkflowConstraint: the token masks that keep a Conductor's sampled answer a valid workflow for
 * its pool (workflow-automaton.ts says exactly which texts), for any tokenizer whose tokens decode to
 * text one by one. The engine ANDs the mask into the logits before sampling.
 */
import { createTokenConstraint, type ConstrainedState, type TokenConstraint, type TokenVocab } from './token-constraint.ts';
import { createWorkflowAutomaton, type WorkflowFormat, type WorkflowState } from './workflow-automaton.ts';

type WorkflowConstraintOptions = TokenVocab & WorkflowFormat;

export type WorkflowConstraint = TokenConstraint<ConstrainedState<WorkflowState>>;

export function createWorkflowConstraint(options: WorkflowConstraintOptions): WorkflowConstraint {
  const { vocab, eosIds, jumpForward, ...format } = options;
  const { forced, ...stepwise } = createTokenConstraint(createWorkflowAutomaton(format), { vocab, eosIds });
  return jumpForward ? { ...stepwise, forced } : stepwise;
}
