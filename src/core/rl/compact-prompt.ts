/**
 * A short Conductor prompt for small Conductors trained from scratch with a shrunken vocabulary (docs/learning.md),
 * where the Ask prompt's worked examples would cost thousands of tokens a sequence. It holds what the choice depends on, the question and the pool's size, and no prefill:
 * with format-constrained sampling the lists are the whole answer. Test: test/unit/core/rl/rollout.test.ts.
 */
import type { ConductorPromptFor } from './rollout.ts';

export const compactPrompt: ConductorPromptFor = (task, workers, { maxSteps }) => [
  {
    role: 'user',
    content: `Plan at most ${maxSteps} steps over models 0-${workers.length - 1} as model_id, subtasks and access_list.\nQuestion: ${task.question}`,
  },
];

/**
 * The compact prompt reading only the question's first `questionChars` characters: a cap on the tokens a
 * step trains on where questions run long (recorded pools' code and word problems, docs/pools.md). The
 * workers still get the whole question.
 */
export function compactPromptWithin(questionChars: number): ConductorPromptFor {
  return (task, workers, format) => compactPrompt({ ...task, question: task.question.slice(0, questionChars) }, workers, format);
}
