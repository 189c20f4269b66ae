/**
 * `baton train --every-plan` on a slice of the routerbench task set with its four-model recorded pool, from
 * the tiny Conductor: every group is each worker's plan once, written as constrained decoding writes it,
 * with the start's own log-probabilities (checked against `baton logprobs`) and each plan's replayed reward;
 * and under a lambda large enough that the dearest model's dollars outweigh a right answer twice over, the
 * policy's choice moves to cheaper models where lambda 0 does not move it so. The direction only: the
 * accuracy figures come from bench/cost-frontier.ts --every-plan.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routingOutcomes, singleWorkerPoints } from '../../../../../src/core/bench/index.ts';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import { routingPlan } from '../../../../../src/core/rl/every-plan.ts';
import { FIXED_SUBTASKS } from '../../../../../src/core/workflow/constrain/index.ts';
import { buildPool, builtInPool, readBuiltInTaskSet, readReplayFlags } from '../../../../../src/node/inputs/index.ts';
import { filesFromDir } from '../../../../../src/engine/model/files-node.ts';
import { loadTokenizer } from '../../../../../src/engine/tokenizer/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../../support/tiny-model.ts';

const POOL = 'routerbench-4';
const STEPS = 6;
const QUESTIONS = 4;

describe('baton train --every-plan', () => {
  let dir: string;
  let lambda: number;
  /** Dollars of each worker's answer to each slice question, by question text. */
  let dollars: Map<string, number[]>;
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    return { code: await main(argv, io), io };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-every-plan-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code, made.io.err).toBe(0);
    const slice = (await readBuiltInTaskSet('routerbench', 0)).train.slice(0, 16);
    await writeFile(join(dir, 'tasks.jsonl'), slice.map((t) => `${JSON.stringify(t)}\n`).join(''));
    const specs = await builtInPool(POOL);
    const pool = await buildPool(specs, {}, await readReplayFlags(recordingIo(dir), [], specs), 0);
    const outcomes = await routingOutcomes(slice, pool, FIXED_SUBTASKS[0], (t) => t.kind);
    lambda = 2 / Math.max(...singleWorkerPoints(outcomes, 0).map((p) => p.dollarsPerQuestion));
    dollars = new Map(slice.map((t, i) => [t.question, outcomes.outcomes.map((byTask) => byTask[i].costUsd)]));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const train = async (costWeight: number, out: string) => {
    const trained = await run(
      'train',
      ...['--model', 'model', '--weights', 'f32', '--pool', POOL, '--tasks', 'tasks.jsonl', '--constrain', '--prompt', 'compact'],
      ...['--question-chars', '80', '--subtasks', 'fixed', '--max-steps', '1', '--max-completion-tokens', '40', '--every-plan'],
      ...['--steps', String(STEPS), '--questions', String(QUESTIONS), '--lr', '0.03', '--r', '4', '--targets', 'all'],
      ...['--cost-weight', String(costWeight), '--scale-rewards', 'none', '--seed', '3', '--out', out],
    );
    expect(trained.code, trained.io.err).toBe(0);
    return (await readFile(join(dir, out, 'episodes.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Episode);
  };

  /** The groups of a step, each its episodes in file order. */
  const groupsOf = (episodes: Episode[], step: number) => {
    const groups = new Map<string, Episode[]>();
    for (const e of episodes.filter((e) => e.tags.includes(`step:${step}`) && e.tags.includes('train')))
      groups.set(e.group!, [...(groups.get(e.group!) ?? []), e]);
    return [...groups.values()];
  };

  /**
   * The policy's expected dollars at a step: each question's plans differ first at the token naming the
   * worker, so the softmax of the plans' logprobs there is its choice among them.
   */
  const expectedDollars = (episodes: Episode[], step: number) => {
    const groups = groupsOf(episodes, step);
    const perQuestion = groups.map((g) => {
      const ids = g.map((e) => e.completion.tokenIds!);
      const at = ids[0].findIndex((id, i) => ids.some((other) => other[i] !== id));
      const logits = g.map((e) => e.completion.logprobs![at]);
      const top = Math.max(...logits);
      const weights = logits.map((l) => Math.exp(l - top));
      const sum = weights.reduce((a, b) => a + b, 0);
      const cost = dollars.get(g[0].task.question)!;
      return weights.reduce((d, w, k) => d + (w / sum) * cost[k], 0);
    });
    return perQuestion.reduce((a, b) => a + b, 0) / perQuestion.length;
  };

  it("writes every worker's plan once a question, with the start's logprobs and each plan's replayed reward", async () => {
    const episodes = await train(lambda, 'costly');
    const first = groupsOf(episodes, 1);
    expect(first).toHaveLength(QUESTIONS);
    for (const group of first) {
      expect(group.map((e) => e.workflow!.steps.map((s) => s.worker))).toEqual([[0], [1], [2], [3]]);
      expect(group.map((e) => e.completion.text)).toEqual([0, 1, 2, 3].map(routingPlan));
      for (const [k, e] of group.entries()) {
        expect(e.totals.costUsd).toBeCloseTo(dollars.get(e.task.question)![k], 12);
        expect(e.reward!.value).toBeCloseTo((e.reward!.correct ? 1 : 0.5) - lambda * e.totals.costUsd!, 9);
        // Nothing was drawn: no seed is recorded as if it had been.
        expect(e.conductor.sampling).not.toHaveProperty('seed');
      }
    }
    // Step 1's logprobs are the start's (the new adapter adds nothing yet): the model scores the same sequence alike.
    const e = first[1][2];
    const tokenizer = await loadTokenizer(filesFromDir(join(dir, 'model')));
    const full = [...tokenizer.encodeChat(e.prompt!, { continueFinal: false }), ...e.completion.tokenIds!];
    await writeFile(join(dir, 'ids.json'), JSON.stringify(full));
    const scored = await run('logprobs', '--model', 'model', '--weights', 'f32', '--ids', 'ids.json');
    expect(scored.code, scored.io.err).toBe(0);
    const { logprobs } = JSON.parse(scored.io.out) as { logprobs: number[] };
    const completion = logprobs.slice(full.length - 1 - e.completion.tokenIds!.length);
    completion.forEach((lp, i) => expect(e.completion.logprobs![i]).toBeCloseTo(lp, 4));

    // What the progress line and metrics.jsonl show of the policy, as the plans no longer do: its choice among the workers.
    const metrics = (await readFile(join(dir, 'costly', 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { choiceShares: number[]; workerChoices: number[] });
    expect(metrics).toHaveLength(STEPS);
    for (const m of metrics) {
      expect(m.choiceShares).toHaveLength(4);
      expect(m.choiceShares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      expect(m.workerChoices).toEqual([QUESTIONS, QUESTIONS, QUESTIONS, QUESTIONS]);
    }
    const dearest = 0; // GPT-4
    expect(metrics[STEPS - 1].choiceShares[dearest]).toBeLessThan(metrics[0].choiceShares[dearest]);

    const free = await train(0, 'free');
    expect(expectedDollars(episodes, 1)).toBeCloseTo(expectedDollars(free, 1), 9);
    expect(expectedDollars(episodes, STEPS)).toBeLessThan(0.7 * expectedDollars(episodes, 1));
    expect(expectedDollars(episodes, STEPS)).toBeLessThan(expectedDollars(free, STEPS));
  }, 1_200_000);

  it('refuses what has no every plan to enumerate', async () => {
    const refused = await run(
      'train',
      ...['--model', 'model', '--pool', POOL, '--tasks', 'tasks.jsonl', '--constrain', '--max-steps', '2', '--subtasks', 'fixed', '--every-plan', '--out', 'x'],
    );
    expect(refused.code).toBe(2);
    expect(refused.io.err).toContain('--every-plan needs --constrain --subtasks fixed --max-steps 1');
  });
});
