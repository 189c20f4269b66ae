import { describe, expect, it } from 'vitest';
import { BatonError } from '../../../../src/core/errors/index.ts';
import { createSimulatedWorker } from '../../../../src/core/providers/simulated/index.ts';
import type { WorkerModel } from '../../../../src/core/providers/index.ts';
import { compactPrompt, completionMask, rolloutGroup, type RolloutOptions } from '../../../../src/core/rl/index.ts';
import { createWorkflowConstraint } from '../../../../src/core/workflow/constrain/index.ts';
import { smallVocab } from '../workflow/constrain/tokenizers.ts';
import type { Task } from '../../../../src/core/task.ts';
import { buildConductorPrompt } from '../../../../src/core/workflow/index.ts';
import { ScriptedPolicy, type Choice } from './scripted-policy.ts';

const task: Task = { question: 'What is 6 * 7?', answer: '42', kind: 'number' };

const sim = (id: string, skill: number, price = { input: 1, output: 2 }) =>
  createSimulatedWorker({ id, provider: 'simulated', model: id, price, simulated: { skill: { default: skill }, latencyMs: 0 } });

/** A worker whose API is down. */
const down: WorkerModel = {
  spec: { id: 'down', provider: 'openai', model: 'x' },
  supportsPrefill: false,
  call: async () => {
    throw new BatonError({ code: 'provider/server', message: 'Service unavailable.', isRetryable: false });
  },
};

const OPTIONS: RolloutOptions = { n: 4, maxCompletionTokens: 40, temperature: 1, seed: 9, group: 'run/s3/q0', tags: ['step:3'] };
const choices = (list: Choice[]) => (_seed: number, i: number) => list[i];

describe('rolloutGroup', () => {
  it('samples G plans of the Ask prompt and scores each: right 1, wrong 0.5, malformed 0', async () => {
    const policy = new ScriptedPolicy(choices([0, 1, 'malformed', 0]));
    const pool = [sim('right', 1), sim('wrong', 0)];
    const group = await rolloutGroup(task, pool, policy, OPTIONS);

    expect(policy.calls).toHaveLength(1);
    const { prompt, options } = policy.calls[0];
    expect(prompt).toEqual(buildConductorPrompt({ question: task.question, workers: pool.map((w) => w.spec), maxSteps: 5, access: 'binary', kind: 'number' }));
    expect(options).toMatchObject({ n: 4, maxNewTokens: 40, sampling: { temperature: 1, seed: 9 }, continueFinal: true });
    expect(options.constraint).toBeUndefined();

    expect(group.samples.map((s) => s.reward)).toEqual([1, 0.5, 0, 1]);
    expect(group.samples.map((s) => s.components.correct)).toEqual([1, 0, 0, 1]);
    expect(group.samples.map((s) => s.components.format)).toEqual([1, 1, 0, 1]);
    expect(group.samples[2].components.costUsd).toBe(0);
    expect(group.samples[0].components.costUsd).toBeGreaterThan(0);
    expect(group.samples.map((s) => s.completion.index)).toEqual([0, 1, 2, 3]);
    expect(group.promptIds).toEqual([1, 2, 3]);
    expect(group.excluded).toEqual([]);
    for (const s of group.samples) {
      expect(s.episode).toMatchObject({ group: 'run/s3/q0', tags: ['step:3'], completion: { tokenIds: s.completion.tokens, logprobs: s.completion.logprobs } });
    }
  });

  it('leaves infrastructure failures out of the group instead of scoring them 0', async () => {
    const group = await rolloutGroup(task, [sim('right', 1), down], new ScriptedPolicy(choices([1, 0, 1, 'malformed'])), OPTIONS);
    expect(group.samples.map((s) => s.completion.index)).toEqual([1, 3]);
    expect(group.samples.map((s) => s.reward)).toEqual([1, 0]);
    expect(group.excluded).toHaveLength(2);
    expect(group.excluded.every((e) => e.reward?.infraError === true)).toBe(true);
  });

  it('takes lambda x dollars off each reward with a cost weight', async () => {
    const pool = [sim('cheap', 1, { input: 1, output: 1 }), sim('dear', 1, { input: 100, output: 100 })];
    const group = await rolloutGroup(task, pool, new ScriptedPolicy(choices([0, 1, 0, 1])), {
      ...OPTIONS,
      rewardScheme: { formatError: 0, wrong: 0.5, correct: 1, costWeight: 2 },
    });
    for (const s of group.samples) {
      expect(s.components.costUsd).toBeGreaterThan(0);
      expect(s.reward).toBeCloseTo(1 - 2 * s.components.costUsd, 12);
    }
    expect(group.samples[1].components.costUsd).toBeGreaterThan(50 * group.samples[0].components.costUsd);
  });

  it('asks for the pool-sized format constraint and its end-of-sequence ids', async () => {
    const policy = new ScriptedPolicy(choices([0, 0, 0, 0]));
    // A constraint that offers a choice at every step, so every sampled token counts in the loss.
    const constraint = { vocabSize: 2, start: () => 0, advance: () => 0, mask: () => Uint32Array.of(3), offersChoice: () => true } as never;
    const sizes: number[] = [];
    const group = await rolloutGroup(task, [sim('a', 1), sim('b', 1), sim('c', 1)], policy, {
      ...OPTIONS,
      constraint: (w) => (sizes.push(w), { constraint, eosIds: [5, 6] }),
    });
    expect(sizes).toEqual([3]);
    expect(policy.calls[0].options).toMatchObject({ constraint, stopTokens: [5, 6] });
    for (const s of group.samples) expect(s.mask).toEqual(s.completion.tokens.map(() => 1));
  });

  it("with recursion, asks the policy for one answer to each plan's result under the recursion-round constraint", async () => {
    const recursed = (p: unknown) => JSON.stringify(p).includes('Your workflow has run');
    const policy = new ScriptedPolicy((_seed, i, prompt) => (recursed(prompt) ? 0 : i % 2));
    const constraint = { vocabSize: 2, start: () => 0, advance: () => 0, mask: () => Uint32Array.of(3), offersChoice: () => true } as never;
    const asked: unknown[][] = [];
    const group = await rolloutGroup(task, [sim('right', 1), sim('wrong', 0)], policy, {
      ...OPTIONS,
      recursionDepth: 1,
      constraint: (...args) => (asked.push(args), { constraint, eosIds: [5] }),
    });
    expect(asked).toEqual([[2], [2, true]]);
    const later = policy.calls.filter((c) => recursed(c.prompt));
    expect(later.map((c) => c.options.n)).toEqual([1, 1, 1, 1]);
    // Each completion's round draws from a stream of its own.
    expect(new Set(later.map((c) => c.options.sampling.seed)).size).toBe(4);
    expect(group.samples.map((s) => s.episode.rounds.length)).toEqual([1, 1, 1, 1]);
    // Right in both rounds: 1; wrong, then right: (1 - 0.25) x 0.5 + 0.25 x 1.
    expect(group.samples.map((s) => s.reward)).toEqual([1, 0.625, 1, 0.625]);
    expect(group.samples.map((s) => s.completion.tokens[0])).toEqual([100, 101, 100, 101]);
  });

  it('samples a prompt given by the caller (no prefill: a fresh answer) and keeps it in the episodes', async () => {
    const policy = new ScriptedPolicy(choices([0, 1, 0, 1]));
    const group = await rolloutGroup(task, [sim('a', 1), sim('b', 0)], policy, { ...OPTIONS, prompt: compactPrompt, maxSteps: 2 });
    const messages = [{ role: 'user', content: `Plan at most 2 steps over models 0-1 as model_id, subtasks and access_list.\nQuestion: ${task.question}` }];
    expect(policy.calls[0]).toMatchObject({ prompt: messages, options: { continueFinal: false } });
    for (const s of group.samples) expect(s.episode.prompt).toEqual(messages);
  });
});

describe('completionMask', () => {
  it('counts the tokens the constraint left a choice at and leaves out those it forced', async () => {
    const v = await smallVocab();
    const constraint = createWorkflowConstraint({ ...v, workers: 3, maxSteps: 2, allowReasoning: false });
    const head = v.tokenizer.encode('model_id = [');
    const ids = [...v.tokenizer.encode('model_id = [2]\nsubtasks = ["Go"]\naccess_list = [[]]'), v.eosIds[0]];
    const mask = completionMask(constraint, ids, 200);
    expect(mask).toHaveLength(ids.length);
    // Not choices: the label (however it is split into tokens), and the bracket that closes the access list.
    expect(mask.slice(0, head.length)).toEqual(head.map(() => 0));
    expect(mask[ids.length - 2]).toBe(0);
    // Which worker: a choice among three.
    expect(mask[head.length]).toBe(1);
    // With a budget of exactly these tokens, nothing but the shortest ending fits after the worker, so fewer choices remain.
    const tight = completionMask(constraint, ids, ids.length);
    expect(tight.reduce((a, b) => a + b, 0)).toBeLessThan(mask.reduce((a, b) => a + b, 0));
  });
});
