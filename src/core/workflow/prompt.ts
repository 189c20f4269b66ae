/**
 * The Conductor's prompt (docs/method.md, "The prompt"): a short system message, a user message with the role,
 * the output format, worked examples from other domains, the question and the numbered pool, then an
 * assistant prefill that the Conductor continues. Also the recursion turn (its "Extensions"). Wording is ours.
 * Tested by test/unit/core/workflow/prompt.test.ts.
 */
import type { ChatMessage, WorkerSpec } from '../providers/index.ts';
import type { TaskKind } from '../task.ts';
import { pickExamples, type WorkedExample } from './examples.ts';
import { renderWorkflow } from './render.ts';
import { threadBlock, type ThreadTurn } from './thread.ts';
import { DEFAULT_MAX_STEPS, type AccessMode, type Step } from './types.ts';

interface ConductorPromptOptions {
  question: string;
  /** The pool's size, or the pool itself (only `description` is read, and only with describeWorkers). */
  workers: number | readonly Pick<WorkerSpec, 'description'>[];
  maxSteps?: number; // default 5
  access?: AccessMode; // default 'binary', the paper's main method
  describeWorkers?: boolean;
  /** The question's kind, so the examples come from other domains. */
  kind?: TaskKind;
  /** The conversation the question follows up, already bounded (boundThread). */
  thread?: readonly ThreadTurn[];
}

const CONDUCTOR_SYSTEM = 'You lead a team of language models. You do not answer questions yourself: you plan which model does what, and the team answers.';

export const CONDUCTOR_PREFILL =
  'Let me think step by step about how to split this question into subtasks, which model should take each one, and which earlier steps each one should see.';

export function buildConductorPrompt(opts: ConductorPromptOptions): ChatMessage[] {
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  const mode = opts.access ?? 'binary';
  const poolSize = typeof opts.workers === 'number' ? opts.workers : opts.workers.length;
  const examples = pickExamples(opts.kind, 4, maxSteps).map((e, i) => renderExample(e, i + 1, mode, poolSize));
  const user = [
    `Your job is to answer the question below by splitting it into at most ${maxSteps} steps. ` +
      'Each step sends one subtask to one model from the pool, and says which earlier steps that model may read.',
    formatText(maxSteps, mode),
    `Worked examples (their questions come from other fields than yours; copy the format, not the content):\n\n${examples.join('\n\n')}`,
    ...(opts.thread?.length ? [threadBlock(opts.thread)] : []),
    `The question:\n<question>\n${opts.question}\n</question>`,
    `The models you can use:\n${poolLines(opts)}`,
  ].join('\n\n');
  return [
    { role: 'system', content: CONDUCTOR_SYSTEM },
    { role: 'user', content: user },
    { role: 'assistant', content: CONDUCTOR_PREFILL },
  ];
}

function formatText(maxSteps: number, mode: AccessMode): string {
  const access =
    mode === 'binary'
      ? 'access_list: for each step, "all" to let it read every earlier step (subtask and response), or [] to give it only the question.'
      : 'access_list: for each step, a list of the earlier steps it may read, by step number from 0 (e.g. [0, 2]); [] gives it only the question; "all" gives it every earlier step. A step never reads itself or a later step.';
  return [
    'Think first about the question: what it needs, which parts are independent, and which model suits each part. ' +
      `Then end your answer with three Python lists of the same length, one entry per step (1 to ${maxSteps} steps), in this order, and write nothing after them:`,
    'model_id: for each step, the number of the model that does it.',
    'subtasks: for each step, the instructions that model receives, as a string. Write them for that model: say exactly what to do and what to output.',
    access,
    "The last step's response is the final answer, so the last step must produce a complete answer in the form the question asks for. " +
      'Easy questions need one or two steps; hard ones gain from independent attempts and a step that checks them.',
  ].join('\n');
}

/** A worked example with its access in the given mode and its model ids folded into the pool. */
function renderExample(e: WorkedExample, n: number, mode: AccessMode, poolSize: number): string {
  const steps: Step[] = e.steps.map((s) => ({
    worker: s.worker % Math.max(1, poolSize),
    subtask: s.subtask,
    access: mode === 'binary' && s.access !== 'all' && s.access.length > 0 ? 'all' : s.access,
  }));
  return `Example ${n}\nQuestion: ${e.question}\nAnswer: ${e.reasoning}\n${renderWorkflow({ steps })}`;
}

function poolLines(opts: ConductorPromptOptions): string {
  const pool = typeof opts.workers === 'number' ? Array.from({ length: opts.workers }, () => ({})) : opts.workers;
  return pool
    .map((w: Pick<WorkerSpec, 'description'>, i) => {
      const about = opts.describeWorkers && w.description?.trim() ? `: ${w.description.trim()}` : '';
      return `Model id ${i}${about}`;
    })
    .join('\n');
}

interface RecursionTurnOptions {
  /** The round's prompt as sent: it ends with the assistant prefill the Conductor continued. */
  messages: readonly ChatMessage[];
  /** The Conductor's continuation of that prefill. */
  completion: string;
  /** The round's final answer (its last non-empty step response). */
  finalResponse: string;
  maxSteps?: number;
  access?: AccessMode;
}

export const RECURSION_PREFILL = 'Let me check the final response against the question and decide whether to keep it or to plan another round.';

/**
 * The whole conversation for the next round: the prior prompt with the prefill and completion joined
 * into one assistant message, a user turn showing the final response, and a new prefill.
 */
export function buildRecursionTurn(opts: RecursionTurnOptions): ChatMessage[] {
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  const prior = [...opts.messages];
  const last = prior[prior.length - 1];
  const prefill = last?.role === 'assistant' ? (prior.pop() as ChatMessage).content : '';
  const seeAll = (opts.access ?? 'binary') === 'binary' ? '"all"' : '"all" (or an index list)';
  const user = [
    `Your workflow has run. Its final response was:\n<final_response>\n${opts.finalResponse}\n</final_response>`,
    'If this response answers the question correctly and completely, keep it: end your answer with three empty lists,\n' +
      'model_id = []\nsubtasks = []\naccess_list = []',
    `Otherwise, write a new workflow of at most ${maxSteps} steps in the same format as before. ` +
      `In the new round, a step given ${seeAll} also reads the steps of the previous round.`,
  ].join('\n\n');
  return [
    ...prior,
    { role: 'assistant', content: prefill + opts.completion },
    { role: 'user', content: user },
    { role: 'assistant', content: RECURSION_PREFILL },
  ];
}
