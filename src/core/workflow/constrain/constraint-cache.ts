/**
 * Workflow constraints kept per tokenizer: building one decodes every token id and sorts the
 * vocabulary, so a Conductor reuses the constraint of each (vocabulary size, pool size, format) it
 * meets, across questions and recursion rounds.
 */
import { tokenVocabOf, type VocabTokenizer } from './token-vocab.ts';
import type { WorkflowFormat } from './workflow-automaton.ts';
import { createWorkflowConstraint, type WorkflowConstraint } from './workflow-constraint.ts';

interface PerVocab {
  vocab: { vocab: string[]; eosIds: number[] };
  constraints: Map<string, WorkflowConstraint>;
}

const byTokenizer = new WeakMap<VocabTokenizer, Map<number, PerVocab>>();

/** `vocabSize`: the model's LM head rows (at least the tokenizer's ids); padding rows are never allowed. */
/** The constraint, and the end-of-sequence ids it allows where the workflow is complete (generation must stop on each). */
export function workflowConstraintFor(
  tokenizer: VocabTokenizer,
  vocabSize: number,
  format: WorkflowFormat,
): { constraint: WorkflowConstraint; eosIds: readonly number[] } {
  let sizes = byTokenizer.get(tokenizer);
  if (!sizes) byTokenizer.set(tokenizer, (sizes = new Map()));
  let entry = sizes.get(vocabSize);
  if (!entry) sizes.set(vocabSize, (entry = { vocab: tokenVocabOf(tokenizer, vocabSize), constraints: new Map() }));
  const key = JSON.stringify([
    format.workers,
    format.maxSteps,
    format.access,
    format.allowReasoning,
    format.maxSubtaskChars,
    format.recursion,
    format.fixedSubtasks,
    format.jumpForward,
  ]);
  let constraint = entry.constraints.get(key);
  if (!constraint) entry.constraints.set(key, (constraint = createWorkflowConstraint({ ...entry.vocab, ...format })));
  return { constraint, eosIds: entry.vocab.eosIds };
}
