/**
 * A task set as the rows TRL and verl read, with the Conductor's prompt for each question over the
 * pool: the same messages Baton's own GRPO loop samples from (core/rl's askPrompt), so the reward
 * server, which rebuilds nothing but runs the completion, sees plans written for that pool.
 * - TRL (GRPOTrainer, conversational): prompt (chat messages ending with the assistant prefill, which
 *   TRL continues), question, answer, kind, choices (the reward function's keyword columns).
 * - verl (RLHFDataset): data_source, prompt (chat messages without the prefill: verl always adds a
 *   generation prompt after them), ability, reward_model {style 'rule', ground_truth},
 *   extra_info {split, index, question, kind, choices, item_id}.
 */
import type { ChatMessage, WorkerSpec } from '../../../core/providers/index.ts';
import { askPrompt } from '../../../core/rl/index.ts';
import type { Task } from '../../../core/task.ts';

export interface PromptFormat {
  maxSteps: number;
}

export interface TrlRow {
  prompt: ChatMessage[];
  question: string;
  answer: string;
  kind: string;
  choices: string[];
}

export interface VerlRow {
  data_source: string;
  prompt: ChatMessage[];
  ability: string;
  reward_model: { style: 'rule'; ground_truth: string };
  extra_info: { split: string; index: number; question: string; kind: string; choices: string[]; item_id: string };
}

const promptOf = (task: Task, pool: readonly WorkerSpec[], format: PromptFormat) => askPrompt(task, pool, { maxSteps: format.maxSteps, access: 'binary' });

export function trlRows(tasks: readonly Task[], pool: readonly WorkerSpec[], format: PromptFormat): TrlRow[] {
  return tasks.map((task) => ({
    prompt: promptOf(task, pool, format),
    question: task.question,
    answer: task.answer ?? '',
    kind: task.kind,
    choices: task.choices ?? [],
  }));
}

export function verlRows(tasks: readonly Task[], pool: readonly WorkerSpec[], format: PromptFormat, split: string): VerlRow[] {
  return tasks.map((task, index) => {
    const messages = promptOf(task, pool, format);
    return {
      data_source: `baton/${task.dataset ?? 'tasks'}`,
      prompt: messages.at(-1)?.role === 'assistant' ? messages.slice(0, -1) : messages,
      ability: task.kind,
      reward_model: { style: 'rule', ground_truth: task.answer ?? '' },
      extra_info: { split, index, question: task.question, kind: task.kind, choices: task.choices ?? [], item_id: task.itemId ?? String(index) },
    };
  });
}
