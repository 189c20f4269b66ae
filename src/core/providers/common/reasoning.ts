import type { WorkerSpec } from '../types.ts';

type Reasoning = WorkerSpec['reasoning'];
type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/**
 * Token budgets standing in for effort words on APIs that only take a budget (Claude, Gemini 2.5).
 * 'minimal' is 0: no thinking (Gemini Flash accepts 0; Claude treats 0 as thinking off).
 */
const BUDGET_OF_EFFORT: Record<ReasoningEffort, number> = { minimal: 0, low: 2_048, medium: 8_192, high: 24_576 };

/** A thinking budget in tokens, or undefined when the spec says nothing. */
export function thinkingBudget(reasoning: Reasoning): number | undefined {
  if (reasoning === undefined) return undefined;
  return typeof reasoning === 'number' ? Math.max(0, Math.round(reasoning)) : BUDGET_OF_EFFORT[reasoning];
}

/** An effort word for APIs that take one (GPT-5 `reasoning_effort`); a budget maps to the nearest word. */
export function reasoningEffort(reasoning: Reasoning): ReasoningEffort | undefined {
  if (reasoning === undefined || typeof reasoning === 'string') return reasoning;
  if (reasoning <= 0) return 'minimal';
  if (reasoning <= BUDGET_OF_EFFORT.low) return 'low';
  if (reasoning <= BUDGET_OF_EFFORT.medium) return 'medium';
  return 'high';
}
