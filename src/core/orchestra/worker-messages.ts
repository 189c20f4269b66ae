import type { ChatMessage } from '../providers/index.ts';
import { threadBlock, type ThreadTurn } from '../workflow/index.ts';

/** One earlier step as a worker is shown it. `worker` is its model id (pool index), not its step index. */
export interface SharedStep {
  worker: number;
  subtask: string;
  response: string;
}

interface WorkerMessageInput {
  question: string;
  /** The conversation the question follows up, already bounded: every step sees it, whatever its access. */
  thread?: readonly ThreadTurn[];
  subtask: string;
  /** The earlier steps of this round that the step may see, in step order. */
  visible: SharedStep[];
  /** A recursion round's earlier steps, shown to steps with access "all". */
  previousRound?: SharedStep[];
  /** Whether to add the assistant prefill (only where the worker honours one). */
  prefill: boolean;
}

export const WORKER_PREAMBLE =
  'You are one member of a team of AI agents working together on a larger task. You are given one ' +
  'subtask of it. Subtasks given to other agents, and their responses, may be shown below, each inside ' +
  'tags naming the agent. Use them: build on their work, and look for their mistakes rather than ' +
  'trusting them. When your subtask asks for the final answer, put it inside <answer></answer> tags.';

export const WORKER_PREFILL = 'Let me work through this step by step.';

function stepBlocks(steps: SharedStep[]): string[] {
  return steps
    .filter((s) => s.response.trim() !== '')
    .map(
      (s) =>
        `<Subtask assigned to Agent ${s.worker}>\n${s.subtask}\n</Subtask assigned to Agent ${s.worker}>\n\n` +
        `<Agent ${s.worker} response>\n${s.response}\n</Agent ${s.worker} response>`,
    );
}

/** Exactly what a worker is sent for one step (docs/method.md, "What each worker receives"). Pure. */
export function buildWorkerMessages(input: WorkerMessageInput): ChatMessage[] {
  const parts = [WORKER_PREAMBLE, ...(input.thread?.length ? [threadBlock(input.thread)] : []), `<overall_task>\n${input.question}\n</overall_task>`];
  const previous = stepBlocks(input.previousRound ?? []);
  if (previous.length > 0) parts.push(`<previous_round>\n${previous.join('\n\n')}\n</previous_round>`);
  parts.push(...stepBlocks(input.visible));
  parts.push(`Your assigned subtask: ${input.subtask}`);
  const messages: ChatMessage[] = [{ role: 'user', content: parts.join('\n\n') }];
  if (input.prefill) messages.push({ role: 'assistant', content: WORKER_PREFILL });
  return messages;
}
