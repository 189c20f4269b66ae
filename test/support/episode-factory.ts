/**
 * Realistic random Episodes for tests: seeded, so a failure repeats. Optional fields are absent rather
 * than undefined, so an episode survives a JSON round trip deep-equal. Mixes known and unknown prices,
 * graded and ungraded runs, recursion rounds, groups, tags and every status.
 */
import type { Episode, RoundRecord, StepRecord } from '../../src/core/episodes/index.ts';
import type { ChatMessage, WorkerSpec } from '../../src/core/providers/types.ts';
import type { Task, TaskKind } from '../../src/core/task.ts';
import type { Workflow } from '../../src/core/workflow/types.ts';
import { seededRandom } from '../../src/core/random.ts';

export type Rng = () => number;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

export const FACTORY_POOL: WorkerSpec[] = [
  { id: 'gpt', provider: 'openai', model: 'gpt-5-mini', price: { input: 0.25, output: 2, cachedInput: 0.025 } },
  { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5', price: { input: 3, output: 15 }, reasoning: 2048 },
  { id: 'local', provider: 'openai-compatible', model: 'qwen3-8b', baseUrl: 'http://127.0.0.1:11434/v1', label: 'Ollama' },
];
export const FACTORY_DATASETS = ['math500', 'gsm8k', 'mmlu', 'aime'] as const;
export const FACTORY_TAGS = ['train', 'eval', 'demo', 'baseline', 'grpo'] as const;
export const FACTORY_MODELS = ['baton-conductor-0.5b', 'qwen2.5-7b-instruct'] as const;

const KIND_OF: Record<(typeof FACTORY_DATASETS)[number], TaskKind> = { math500: 'math', gsm8k: 'gsm8k', mmlu: 'mcq', aime: 'number' };

function makeTask(rng: Rng): Task {
  if (rng() < 0.15) return { question: `Write a haiku about rivers #${int(rng, 1, 999)}`, kind: 'open' };
  const dataset = pick(rng, FACTORY_DATASETS);
  const a = int(rng, 2, 99);
  const b = int(rng, 2, 99);
  const task: Task = {
    question: `What is ${a} * ${b}? Answer with \\boxed{}.`,
    answer: String(a * b),
    kind: KIND_OF[dataset],
    dataset,
    itemId: `${dataset}-${int(rng, 0, 4999)}`,
  };
  if (dataset === 'mmlu') task.choices = ['12', String(a * b), '7', 'none'];
  return task;
}

function makeStep(rng: Rng, index: number, question: string): StepRecord {
  const worker = int(rng, 0, FACTORY_POOL.length - 1);
  const spec = FACTORY_POOL[worker];
  const input = int(rng, 80, 4000);
  const output = int(rng, 10, 2000);
  const step: StepRecord = {
    index,
    worker,
    workerId: spec.id,
    subtask: pick(rng, ['Solve the problem.', 'Check the answer above and fix any mistake.', 'State the final answer only.']),
    access: index === 0 ? [] : rng() < 0.5 ? 'all' : [int(rng, 0, index - 1)],
    messages: [{ role: 'user', content: `<overall_task>${question}</overall_task> "quoted" ü 🎼` }],
    output: `Step ${index}: the answer is \\boxed{${int(rng, 1, 9999)}}\n`,
    usage: rng() < 0.3 ? { input, output, cached: int(rng, 0, input) } : { input, output },
    costUsd: spec.price ? (input * spec.price.input + output * spec.price.output) / 1e6 : null,
    latencyMs: int(rng, 150, 20000),
    attempts: rng() < 0.9 ? 1 : 2,
  };
  if (rng() < 0.03) step.error = { code: 'provider/rate-limit', message: 'Rate limited; retried.' };
  return step;
}

function makeSteps(rng: Rng, question: string): StepRecord[] {
  return Array.from({ length: int(rng, 1, 3) }, (_, i) => makeStep(rng, i, question));
}

function workflowOf(steps: StepRecord[]): Workflow {
  return { steps: steps.map(({ worker, subtask, access }) => ({ worker, subtask, access })) };
}

function makeCompletion(rng: Rng, steps: StepRecord[]): Episode['completion'] {
  const text = `Plan.\nmodel_id = [${steps.map((s) => s.worker).join(', ')}]\nsubtasks = [...]\naccess_list = [...]`;
  if (rng() < 0.5) return { text };
  const n = int(rng, 3, 12);
  return { text, tokenIds: Array.from({ length: n }, () => int(rng, 0, 151000)), logprobs: Array.from({ length: n }, () => -rng() * 3) };
}

export interface EpisodeOptions {
  id?: string;
  createdAt?: string;
}

export function makeEpisode(rng: Rng, options: EpisodeOptions = {}): Episode {
  const task = makeTask(rng);
  const prompt: ChatMessage[] = [
    { role: 'system', content: 'You coordinate a team of models.' },
    { role: 'user', content: `Question: ${task.question}\nModel id 0, Model id 1, Model id 2` },
    { role: 'assistant', content: 'Let us think step by step' },
  ];
  const formatError = rng() < 0.06;
  const steps = formatError ? [] : makeSteps(rng, task.question);
  const rounds: RoundRecord[] = [];
  if (!formatError && rng() < 0.15) {
    const roundSteps = makeSteps(rng, task.question);
    rounds.push({
      prompt,
      completion: makeCompletion(rng, roundSteps),
      workflow: workflowOf(roundSteps),
      steps: roundSteps,
      final: roundSteps.at(-1)!.output,
    });
  }
  const allSteps = [...steps, ...rounds.flatMap((r) => r.steps)];
  const usage = { input: 0, output: 0 };
  let cost: number | null = 0;
  for (const s of allSteps) {
    usage.input += s.usage.input;
    usage.output += s.usage.output;
    cost = cost === null || s.costUsd === null ? null : cost + s.costUsd;
  }
  const status: Episode['status'] = formatError ? 'format-error' : pick(rng, ['ok', 'ok', 'ok', 'ok', 'ok', 'infra-error', 'aborted', 'budget'] as const);
  const ep: Episode = {
    id: options.id ?? `ep-${Math.floor(rng() * 2 ** 52).toString(36)}`,
    version: 1,
    createdAt: options.createdAt ?? new Date(Date.UTC(2026, 0, 1) + Math.floor(rng() * 300 * 86_400_000)).toISOString(),
    task,
    pool: FACTORY_POOL,
    conductor:
      rng() < 0.5
        ? {
            runtime: 'engine',
            model: FACTORY_MODELS[0],
            adapter: 'lora-step-120',
            sampling: { temperature: 1, topP: 0.95, maxNewTokens: 1024, seed: int(rng, 0, 1e6) },
          }
        : { runtime: 'worker', model: FACTORY_MODELS[1] },
    prompt,
    completion: makeCompletion(rng, steps),
    steps,
    rounds,
    final: allSteps.at(-1)?.output ?? '',
    tags: FACTORY_TAGS.filter(() => rng() < 0.3),
    totals: { usage, costUsd: cost, latencyMs: allSteps.reduce((t, s) => t + s.latencyMs, 0) },
    status,
  };
  if (formatError) ep.parseError = 'model_id: expected a list of integers';
  else ep.workflow = workflowOf(steps);
  if (task.kind !== 'open' && !formatError && rng() < 0.9) {
    const correct = rng() < 0.6;
    ep.reward = { value: correct ? 1 : 0, correct, format: true, details: { gold: task.answer } };
    if (status === 'infra-error') ep.reward.infraError = true;
  }
  if (rng() < 0.3) ep.group = `g-${int(rng, 0, 40)}`;
  return ep;
}

/** `count` episodes with distinct ids `ep-<seed>-<i>`, spread over the year 2026 (several per day). */
export function makeEpisodes(count: number, seed = 1, options: { days?: number } = {}): Episode[] {
  const rng = seededRandom(seed);
  const days = options.days ?? 300;
  return Array.from({ length: count }, (_, i) =>
    makeEpisode(rng, {
      id: `ep-${seed}-${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(rng() * days * 86_400_000)).toISOString(),
    }),
  );
}
