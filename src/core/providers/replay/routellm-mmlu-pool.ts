/**
 * Real recorded answers as a training ground for a cost-aware Conductor (docs/learning.md's MMLU replay run): RouteLLM's records
 * of GPT-4 (gpt-4-1106-preview) and Mixtral-8x7B-Instruct over the MMLU test set, as a pool of two replay
 * workers at their list prices. Which worker is worth its price depends on the subject, so a Conductor
 * must read it from the question's header (core/bench's routellmMmluTaskSet writes it there).
 * Test: test/unit/node/inputs/replay-data.test.ts.
 */
import type { WorkerSpec } from '../types.ts';

/** Dollars per million tokens: OpenAI's list price of gpt-4-1106-preview, and a common hosted price of Mixtral-8x7B. */
export const ROUTELLM_MMLU_POOL: readonly WorkerSpec[] = [
  { id: 'gpt-4', provider: 'replay', model: 'gpt-4-1106-preview', label: 'GPT-4 (recorded)', price: { input: 10, output: 30 } },
  { id: 'mixtral', provider: 'replay', model: 'mistralai/Mixtral-8x7B-Instruct-v0.1', label: 'Mixtral 8x7B (recorded)', price: { input: 0.6, output: 0.6 } },
];
