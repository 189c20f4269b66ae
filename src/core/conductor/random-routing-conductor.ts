/**
 * The demo Conductor used while no trained one can run in the tab: it does not read the question. It picks
 * a workflow shape and the workers for it at random, and says so in its reasoning. Its output is real
 * three-list text, so the same parser, executor and episode store run as with a trained Conductor.
 * Tested by test/unit/core/conductor/random-routing-conductor.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { isRecursionRound, type Conductor, type ConductorOutput, type ConductorRequest } from '../orchestra/index.ts';
import { renderWorkflow, type AccessMode, type Step, type Workflow } from '../workflow/index.ts';

export const RANDOM_ROUTING_LABEL = 'untrained demo Conductor (random routing)';

interface RandomRoutingOptions {
  /** Number of workers in the pool: model ids are drawn from 0..workers-1. */
  workers: number;
  maxSteps: number;
  /** In binary mode a step sees all earlier steps or none, so index lists become "all". */
  access?: AccessMode;
  /** Source of randomness in [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
  /** Pause between streamed words, so the reasoning visibly streams like a model's. */
  wordDelayMs?: number;
}

type Shape = { name: string; steps: (pick: () => number) => Step[] };

/** The subtask of a worker that answers alone. */
export const SOLVE_SUBTASK = 'Solve the task. Show the key steps and give the final answer in <answer></answer> tags.';

/** Workflow shapes of one to four steps, the kinds of plans a trained Conductor writes. */
const SHAPES: Shape[] = [
  { name: 'one worker answers alone', steps: (pick) => [{ worker: pick(), subtask: SOLVE_SUBTASK, access: [] }] },
  {
    name: 'one worker solves, another checks',
    steps: (pick) => [
      { worker: pick(), subtask: SOLVE_SUBTASK, access: [] },
      {
        worker: pick(),
        subtask: 'Check the earlier solution step by step; fix any mistake and give the final answer in <answer></answer> tags.',
        access: 'all',
      },
    ],
  },
  {
    name: 'two workers solve independently, a third compares',
    steps: (pick) => [
      { worker: pick(), subtask: SOLVE_SUBTASK, access: [] },
      { worker: pick(), subtask: SOLVE_SUBTASK, access: [] },
      {
        worker: pick(),
        subtask: 'Two independent solutions are shown. Compare them, decide which is right, and give the final answer in <answer></answer> tags.',
        access: [0, 1],
      },
    ],
  },
  {
    name: 'plan, solve, verify',
    steps: (pick) => [
      { worker: pick(), subtask: 'Outline a plan to solve the task: the steps and the facts needed. Do not solve it yet.', access: [] },
      { worker: pick(), subtask: 'Follow the plan above and solve the task.', access: 'all' },
      {
        worker: pick(),
        subtask: 'Verify the solution above and give the final answer in <answer></answer> tags.',
        access: 'all',
      },
    ],
  },
];

/** The random choice, before it is streamed: exposed for tests. */
export function sampleRouting(options: RandomRoutingOptions, recursion: boolean): { reasoning: string; workflow: Workflow } {
  const random = options.random ?? Math.random;
  const intro = 'I am an untrained demo Conductor: I do not read the question, I route at random. ';
  if (recursion && random() < 0.5) {
    return { reasoning: `${intro}This time the coin says: keep the previous answer.`, workflow: { steps: [] } };
  }
  const shapes = SHAPES.filter((s) => s.steps(() => 0).length <= options.maxSteps);
  const shape = shapes[Math.floor(random() * shapes.length)];
  const pick = () => Math.floor(random() * options.workers);
  const steps = shape.steps(pick).map((s) => (options.access === 'binary' && s.access !== 'all' && s.access.length > 0 ? { ...s, access: 'all' as const } : s));
  const who = steps.map((s, i) => `step ${i + 1} to Model id ${s.worker}`).join(', ');
  return { reasoning: `${intro}Shape drawn: ${shape.name}. Workers drawn: ${who}.`, workflow: { steps } };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const stopped = () => new BatonError({ code: 'run/aborted', message: 'Stopped.' });
    if (signal?.aborted) return reject(stopped());
    if (ms <= 0) return resolve();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(stopped());
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createRandomRoutingConductor(options: RandomRoutingOptions): Conductor {
  if (options.workers < 1) {
    throw new BatonError({ code: 'run/config', message: 'The worker pool is empty: add at least one worker on the Workers page.' });
  }
  const delay = options.wordDelayMs ?? 25;
  return {
    info: { runtime: 'demo', model: RANDOM_ROUTING_LABEL },
    async generate(req: ConductorRequest): Promise<ConductorOutput> {
      const { reasoning, workflow } = sampleRouting(options, isRecursionRound(req.messages));
      const lists = workflow.steps.length === 0 ? 'model_id = []\nsubtasks = []\naccess_list = []' : renderWorkflow(workflow);
      const text = `${reasoning}\n\n${lists}`;
      for (const word of text.match(/\S+\s*/g) ?? []) {
        await sleep(delay, req.signal);
        req.onDelta?.(word);
      }
      return { text };
    },
  };
}
