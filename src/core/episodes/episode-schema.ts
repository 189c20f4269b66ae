import { BatonError } from '../errors/index.ts';
import { TASK_KINDS } from '../task.ts';
import { accept, array, boolean, count, formatIssue, literal, nullable, number, object, oneOf, optional, plainObject, string } from './checks.ts';
import { EPISODE_VERSION, type Episode } from './types.ts';

/** Episode v1 as a structural check (mirrors types.ts; keep the two in step). */

/**
 * Stores order episodes by comparing createdAt as text, which is only time order when every stamp has
 * the one shape Date.prototype.toISOString writes.
 */
const isoTime = accept(
  'a UTC time as Date.toISOString() writes it (e.g. "2026-01-31T12:00:00.000Z")',
  (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString() === v,
);

const chatMessage = object({ role: literal('system', 'user', 'assistant'), content: string });

const usage = object({ input: count, output: count, cached: optional(count), reasoning: optional(count) });

const access = oneOf(literal('all'), array(count));

const workflow = object({ steps: array(object({ worker: count, subtask: string, access })) });

const completion = object({
  text: string,
  tokenIds: optional(array(count)),
  logprobs: optional(array(number)),
  usage: optional(usage),
  costUsd: optional(nullable(number)),
});

const price = object({ input: number, output: number, cachedInput: optional(number) });

const workerSpec = object({
  id: string,
  provider: string,
  model: string,
  baseUrl: optional(string),
  label: optional(string),
  maxTokens: optional(number),
  temperature: optional(number),
  reasoning: optional(oneOf(literal('minimal', 'low', 'medium', 'high'), number)),
  price: optional(price),
  keyEnv: optional(string),
  description: optional(string),
  simulated: optional(plainObject),
  fallback: optional(string),
});

const task = object({
  question: string,
  answer: optional(string),
  kind: literal(...TASK_KINDS),
  dataset: optional(string),
  itemId: optional(string),
  choices: optional(array(string)),
});

const conductor = object({
  runtime: string,
  model: string,
  adapter: optional(string),
  sampling: optional(
    object({
      temperature: optional(number),
      topP: optional(number),
      topK: optional(number),
      maxNewTokens: optional(number),
      seed: optional(number),
    }),
  ),
});

const error = object({ code: string, message: string });

const failedCall = object({ worker: count, workerId: string, error, usage, costUsd: nullable(number), latencyMs: number, attempts: count });

const step = object({
  index: count,
  worker: count,
  workerId: string,
  subtask: string,
  access,
  messages: array(chatMessage),
  output: string,
  usage,
  costUsd: nullable(number),
  latencyMs: number,
  attempts: count,
  fromCache: optional(boolean),
  error: optional(error),
  fallback: optional(object({ from: failedCall })),
});

const round = object({
  prompt: array(chatMessage),
  completion,
  workflow: optional(workflow),
  parseError: optional(string),
  kept: optional(boolean),
  steps: array(step),
  final: string,
});

const reward = object({
  value: number,
  correct: boolean,
  format: boolean,
  infraError: optional(boolean),
  details: optional(plainObject),
});

const episode = object({
  id: accept('a non-empty string', (v) => typeof v === 'string' && v.length > 0),
  version: literal(EPISODE_VERSION),
  createdAt: isoTime,
  task,
  pool: array(workerSpec),
  conductor,
  prompt: array(chatMessage),
  completion,
  workflow: optional(workflow),
  parseError: optional(string),
  steps: array(step),
  rounds: array(round),
  final: string,
  reward: optional(reward),
  group: optional(string),
  conversation: optional(object({ id: string, turn: count })),
  tags: array(string),
  totals: object({ usage, costUsd: nullable(number), latencyMs: number }),
  error: optional(object({ code: string, message: string })),
  status: literal('ok', 'format-error', 'infra-error', 'aborted', 'budget'),
});

export type Validation = { ok: true; episode: Episode } | { ok: false; message: string };

/** Checks an unknown value (e.g. a parsed JSONL line) against Episode v1; the message names the first bad field. */
export function validateEpisode(value: unknown): Validation {
  const issue = episode(value, '');
  return issue ? { ok: false, message: formatIssue(issue) } : { ok: true, episode: value as Episode };
}

/** Refuses a malformed episode before it reaches storage, naming the bad field. */
export function assertEpisode(ep: unknown): asserts ep is Episode {
  const result = validateEpisode(ep);
  if (!result.ok) {
    throw new BatonError({
      code: 'data/invalid',
      message: `Episode not saved: ${result.message}. Fix the code that built it (see src/core/episodes/types.ts).`,
      data: { id: (ep as { id?: unknown })?.id },
    });
  }
}
