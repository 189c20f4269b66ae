/**
 * The body of a reward server's `POST /v1/reward`, checked field by field:
 * `{"items": [{"completion", "question", "answer", "kind", "choices"?}], "step"?: n}`. A problem is a
 * RequestError carrying the HTTP status and one line saying which field and why.
 */
import type { GradableKind } from '../../core/reward/index.ts';
import type { Task } from '../../core/task.ts';

/** The kinds a reward can grade here (code needs a sandbox, open questions have no gold). */
export const REWARD_KINDS: readonly GradableKind[] = ['math', 'gsm8k', 'number', 'mcq', 'exact', 'literal'];

/** Items per request: a trainer's batch is hundreds at most; this only stops a runaway client. */
const MAX_ITEMS = 4096;

export interface RewardItem {
  completion: string;
  task: Task;
}

export interface RewardRequest {
  items: RewardItem[];
  /** The trainer's step, kept as the episodes' "step:N" tag. */
  step?: number;
}

export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (message: string) => new RequestError(400, message);

function item(raw: unknown, at: string): RewardItem {
  if (!isObject(raw)) throw bad(`${at} must be an object {completion, question, answer, kind}.`);
  for (const field of ['completion', 'question', 'answer', 'kind'] as const) {
    if (typeof raw[field] !== 'string') throw bad(`${at}.${field} must be a string${raw[field] === undefined ? ' (it is missing)' : ''}.`);
  }
  const { completion, question, answer, kind } = raw as Record<string, string>;
  if (question.trim() === '') throw bad(`${at}.question is empty.`);
  if (answer.trim() === '') throw bad(`${at}.answer is empty: the reward grades against it.`);
  if (!REWARD_KINDS.includes(kind as GradableKind)) throw bad(`${at}.kind must be one of ${REWARD_KINDS.join(', ')}, got ${JSON.stringify(kind)}.`);
  const choices = raw.choices;
  if (choices !== undefined && choices !== null && !(Array.isArray(choices) && choices.every((c) => typeof c === 'string'))) {
    throw bad(`${at}.choices must be a list of strings (the options A, B, C, ... in order).`);
  }
  const task: Task = { question, answer, kind: kind as GradableKind, ...(Array.isArray(choices) && choices.length > 0 ? { choices } : {}) };
  return { completion, task };
}

/** The request a body's text holds, or a RequestError (400) naming the first problem. */
export function parseRewardRequest(text: string): RewardRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw bad(`the body is not valid JSON (${(e as Error).message}).`);
  }
  if (!isObject(body)) throw bad('the body must be a JSON object {"items": [...], "step"?: n}.');
  const unknown = Object.keys(body).filter((k) => k !== 'items' && k !== 'step');
  if (unknown.length > 0) throw bad(`unknown field ${JSON.stringify(unknown[0])} (known: items, step).`);
  if (!Array.isArray(body.items)) throw bad('"items" must be a list of {completion, question, answer, kind, choices?}.');
  if (body.items.length === 0) throw bad('"items" is empty.');
  if (body.items.length > MAX_ITEMS) throw bad(`"items" holds ${body.items.length} items; send at most ${MAX_ITEMS} a request.`);
  const step = body.step;
  if (step !== undefined && step !== null && !(typeof step === 'number' && Number.isInteger(step) && step >= 0)) {
    throw bad(`"step" must be a whole number of at least 0, got ${JSON.stringify(step)}.`);
  }
  return { items: body.items.map((raw, i) => item(raw, `items[${i}]`)), ...(typeof step === 'number' ? { step } : {}) };
}
