import { gradeAnswer, isGradable } from '../../reward/index.ts';
import type { Task } from '../../task.ts';
import type { CallRequest, PerKind, SimulatedBehaviour, Usage, WorkerSpec } from '../types.ts';
import { goldAnswer } from './gold.ts';
import { hashString, seededRandom } from '../../random.ts';
import { plausibleWrongAnswer } from './wrong-answer.ts';

/** What a simulated call will return, decided up front (pure), before any waiting. */
interface SimulatedPlan {
  text: string;
  usage: Usage;
  latencyMs: number;
  finishReason: 'stop' | 'length';
  /** Whether the planned answer is right (undefined when the task has no gold answer). */
  correct?: boolean;
}

const DEFAULT_BEHAVIOUR: SimulatedBehaviour = { skill: { default: 0.5 } };
const DEFAULT_CONFIRM_RIGHT = 0.9;
const DEFAULT_FIX_WRONG = 0.3;
const DEFAULT_OUTPUT_TOKENS = 200;

/** A behaviour's probability for a task kind: one number for every kind, or the kind's entry (else `default`). */
function forKind(p: number | PerKind | undefined, kind: string, fallback: number): number {
  if (p === undefined) return fallback;
  return typeof p === 'number' ? p : (p[kind] ?? p.default);
}

function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The last non-empty `<answer>` an earlier agent gave in the messages (the question itself excluded). */
function earlierAnswer(req: CallRequest, task: Task): string | undefined {
  const seen = req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content.split(task.question).join(''))
    .join('\n');
  const answers = [...seen.matchAll(/<answer>([\s\S]*?)<\/answer>/g)].map((m) => m[1].trim()).filter((a) => a !== '');
  return answers.at(-1);
}

function isRightAnswer(answer: string, task: Task): boolean {
  return gradeAnswer(`<answer>${answer}</answer>`, task).correct;
}

interface Decision {
  answer?: string;
  correct?: boolean;
  prose: string;
}

function decide(behaviour: SimulatedBehaviour, req: CallRequest, random: () => number): Decision {
  const task = req.task;
  const gold = task ? goldAnswer(task) : undefined;
  if (!task || !isGradable(task) || gold === undefined || gold === '') {
    return { prose: 'This is a simulated worker: it only simulates answers to questions with a known gold answer.' };
  }
  const pickRight = random();
  const pickWrong = random();
  const wrong = () => plausibleWrongAnswer(task, gold, pickWrong, (a) => isRightAnswer(a, task));
  const previous = earlierAnswer(req, task);
  if (previous !== undefined) {
    const previousRight = isRightAnswer(previous, task);
    if (previousRight) {
      const keeps = pickRight < forKind(behaviour.confirmRight, task.kind, DEFAULT_CONFIRM_RIGHT);
      return keeps
        ? { answer: gold, correct: true, prose: `I checked the earlier answer, ${previous}, step by step and it holds.` }
        : { answer: wrong(), correct: false, prose: `Re-checking the earlier answer, ${previous}, I believe it has a slip.` };
    }
    const fixes = pickRight < forKind(behaviour.fixWrong, task.kind, DEFAULT_FIX_WRONG);
    return fixes
      ? { answer: gold, correct: true, prose: `The earlier answer, ${previous}, is wrong; redoing the work carefully gives a different result.` }
      : { answer: previous, correct: false, prose: `I checked the earlier answer, ${previous}, and it looks right to me.` };
  }
  const skill = forKind(behaviour.skill, task.kind, behaviour.skill.default);
  return pickRight < skill
    ? { answer: gold, correct: true, prose: 'Working through the problem carefully gives the result below.' }
    : { answer: wrong(), correct: false, prose: 'Working through the problem gives the result below.' };
}

/**
 * Plans one simulated call. Deterministic in (seed, worker id, every message's text): the same visible
 * context always gets the same response, whatever order or concurrency the steps ran in.
 */
export function planSimulatedCall(spec: WorkerSpec, req: CallRequest): SimulatedPlan {
  const behaviour = spec.simulated ?? DEFAULT_BEHAVIOUR;
  const transcript = req.messages.map((m) => `${m.role}:${m.content}`).join('\n');
  const random = seededRandom(hashString(`${behaviour.seed ?? 0}\u0000${spec.id}\u0000${transcript}`));
  const decision = decide(behaviour, req, random);
  const latencyMs = Math.max(0, Math.round((behaviour.latencyMs ?? 0) * (0.8 + 0.4 * random())));
  const planned = Math.max(1, Math.round((behaviour.outputTokens ?? DEFAULT_OUTPUT_TOKENS) * (0.8 + 0.4 * random())));
  const input = approxTokens(req.messages.map((m) => m.content).join(''));
  const truncated = req.maxTokens !== undefined && req.maxTokens < planned;
  const answerLine = decision.answer !== undefined && !truncated ? `\n<answer>${decision.answer}</answer>` : '';
  return {
    text: `${decision.prose}${truncated ? ' ...' : ''}${answerLine}`,
    usage: { input, output: truncated ? req.maxTokens! : planned },
    latencyMs,
    finishReason: truncated ? 'length' : 'stop',
    correct: decision.answer === undefined ? undefined : decision.correct && !truncated,
  };
}
