/**
 * One GRPO group: the Conductor prompt of a question (as the Ask path builds it), G completions sampled
 * from the policy in one batch (or, with everyPlan, every worker's one-step plan: every-plan.ts), and each completion scored by scoreCompletion (run on the pool as an
 * episode; a malformed workflow scores the scheme's formatError, 0 as the paper, without calling a
 * worker). A completion whose run hit an infrastructure failure (reward.infraError: a worker down, a
 * budget stop) or could not be graded leaves the group instead of scoring 0. Cost-aware reward: the
 * scheme's costWeight (lambda) takes lambda x dollars off each reward. Recursion (recursionDepth > 0):
 * each completion's run goes on for more rounds, the policy sampling one answer to each round's result;
 * the group trains on the first round's completions with the mixed reward of recursion-reward.ts.
 * Test: test/unit/core/rl/rollout.test.ts.
 */
import type { Episode } from '../episodes/index.ts';
import { hashString } from '../random.ts';
import type { ChatMessage, WorkerModel, WorkerSpec } from '../providers/index.ts';
import { PAPER_REWARD, type CodeRunner, type RewardScheme } from '../reward/index.ts';
import type { Task } from '../task.ts';
import { buildConductorPrompt, DEFAULT_MAX_STEPS, type AccessMode } from '../workflow/index.ts';
import type { TokenConstraint } from '../workflow/constrain/index.ts';
import { BatonError } from '../errors/index.ts';
import { everyPlan } from './every-plan.ts';
import type { Policy, SampledCompletion } from './policy.ts';
import { scoreCompletion, type RewardComponents } from './score-completion.ts';

/**
 * A format constraint for a pool size, with the end-of-sequence ids it allows (workflowConstraintFor's
 * shape); in a recursion round (recursion true) it also allows the three empty lists that keep the answer.
 */
export type ConstraintForPool = (workers: number, recursion?: boolean) => { constraint: TokenConstraint<unknown>; eosIds: readonly number[] };

export type ConductorPromptFor = (task: Task, workers: readonly WorkerSpec[], format: { maxSteps: number; access: AccessMode }) => ChatMessage[];

/** The Ask path's prompt: instructions, worked examples, the question and the numbered pool. */
export const askPrompt: ConductorPromptFor = (task, workers, { maxSteps, access }) =>
  buildConductorPrompt({ question: task.question, workers: [...workers], maxSteps, access, kind: task.kind });

export interface RolloutOptions {
  /** Completions per question (G); with everyPlan, the pool's size instead. */
  n: number;
  /**
   * The group is every one-step plan, one per worker (every-plan.ts), not n samples: a routing
   * Conductor's exact advantages. Needs the constraint, with fixed subtasks.
   */
  everyPlan?: boolean;
  maxCompletionTokens: number;
  temperature: number;
  /** Seed of the group's sampling: completion i draws from its own stream of (seed, i). */
  seed: number;
  maxSteps?: number;
  access?: AccessMode;
  /**
   * The Conductor's messages for a question (default: the Ask path's buildConductorPrompt). A final
   * assistant message is a prefill the policy continues.
   */
  prompt?: ConductorPromptFor;
  /** PAPER_REWARD by default; its costWeight is the cost-aware reward's lambda (per dollar). */
  rewardScheme?: Readonly<RewardScheme>;
  /** Sample only plans that parse for this pool. */
  constraint?: ConstraintForPool;
  /** The episodes' group id, and their tags (e.g. the step). */
  group: string;
  tags?: string[];
  /** Name of the policy in the episodes' conductor record. */
  conductorModel?: string;
  /** The sandbox that grades code tasks. */
  codeRunner?: CodeRunner;
  /** Recursion rounds after the first (default 0), sampled from the policy at the same temperature. */
  recursionDepth?: number;
  /** d of the recursion reward r = (1 - d) r0 + d r1 (default the paper's 0.25). */
  recursionMix?: number;
  signal?: AbortSignal;
}

interface RolloutSample {
  completion: SampledCompletion;
  /** With a constraint: which of the completion's tokens the loss counts (completionMask). */
  mask?: number[];
  /** The scalar GRPO trains on: the scheme's value (cost term included). */
  reward: number;
  components: RewardComponents;
  episode: Episode;
}

export interface RolloutGroup {
  task: Task;
  /** The prompt as the policy tokenised it. */
  promptIds: number[];
  /** Completions that were scored, in sampling order. */
  samples: RolloutSample[];
  /** Episodes left out of training: infrastructure failures and ungradable runs. */
  excluded: Episode[];
  /** The samples are every worker's plan (RolloutOptions.everyPlan), in worker order, not draws from the policy. */
  everyPlan?: boolean;
}

export async function rolloutGroup(task: Task, pool: readonly WorkerModel[], policy: Policy, options: RolloutOptions): Promise<RolloutGroup> {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const access = options.access ?? 'binary';
  const messages = (options.prompt ?? askPrompt)(
    task,
    pool.map((w) => w.spec),
    { maxSteps, access },
  );
  const constrained = options.constraint?.(pool.length);
  const continueFinal = messages.at(-1)?.role === 'assistant';
  const completions = options.everyPlan
    ? await everyPlan(policy, messages, pool.length, everyPlanConstraint(constrained), {
        maxNewTokens: options.maxCompletionTokens,
        temperature: options.temperature,
        continueFinal,
      })
    : await policy.generateGroup(messages, {
        n: options.n,
        maxNewTokens: options.maxCompletionTokens,
        sampling: { temperature: options.temperature, seed: options.seed },
        continueFinal,
        ...(constrained ? { constraint: constrained.constraint, stopTokens: constrained.eosIds } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
  const scheme = options.rewardScheme ?? PAPER_REWARD;
  // Every plan samples nothing: its episodes keep the temperature its logprobs were taken at and the budget, no seed.
  const sampling = { temperature: options.temperature, maxNewTokens: options.maxCompletionTokens, ...(options.everyPlan ? {} : { seed: options.seed }) };
  const depth = options.recursionDepth ?? 0;
  const later = depth > 0 ? options.constraint?.(pool.length, true) : undefined;
  /** Completion i's answer in a recursion round: one sample of its own prompt, from a stream of (seed, i, round). */
  const nextRound = (i: number) => async (prompt: ChatMessage[], round: number) => {
    const [c] = await policy.generateGroup(prompt, {
      n: 1,
      maxNewTokens: options.maxCompletionTokens,
      sampling: { temperature: options.temperature, seed: hashString(`${options.seed} ${i} round ${round}`) },
      continueFinal: prompt.at(-1)?.role === 'assistant',
      ...(later ? { constraint: later.constraint, stopTokens: later.eosIds } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { text: c.text, tokenIds: c.tokens, logprobs: c.logprobs };
  };
  const scored = await Promise.all(
    completions.map(async (c, i) => {
      const { episode, reward, components } = await scoreCompletion(task, pool, c.text, {
        maxSteps,
        access,
        prompt: messages,
        ...(depth > 0 ? { recursion: { depth, nextRound: nextRound(i), ...(options.recursionMix === undefined ? {} : { mix: options.recursionMix }) } } : {}),
        rewardScheme: scheme,
        group: options.group,
        tags: options.tags ?? [],
        ...(options.conductorModel !== undefined ? { conductorModel: options.conductorModel } : {}),
        ...(options.codeRunner ? { codeRunner: options.codeRunner } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      // The episode keeps what the policy was shown and sampled, so it can be trained on again offline.
      const kept: Episode = {
        ...episode,
        prompt: messages,
        conductor: { runtime: 'policy', model: options.conductorModel ?? 'policy', sampling },
        completion: { ...episode.completion, tokenIds: c.tokens, logprobs: c.logprobs },
      };
      return { episode: kept, reward, components };
    }),
  );
  options.signal?.throwIfAborted();
  const samples: RolloutSample[] = [];
  const excluded: Episode[] = [];
  scored.forEach(({ episode, reward, components }, i) => {
    if (reward === undefined || components === undefined) excluded.push(episode);
    else {
      const c = completions[i];
      samples.push({
        completion: c,
        reward,
        components,
        episode,
        ...(constrained ? { mask: completionMask(constrained.constraint, c.tokens, options.maxCompletionTokens) } : {}),
      });
    }
  });
  return { task, promptIds: completions[0]?.promptIds ?? [], samples, excluded, ...(options.everyPlan ? { everyPlan: true } : {}) };
}

function everyPlanConstraint(constrained: ReturnType<ConstraintForPool> | undefined): TokenConstraint<unknown> {
  if (constrained) return constrained.constraint;
  throw new BatonError({ code: 'run/config', message: 'Every plan is written under the workflow constraint: train with it on (--constrain).' });
}

/**
 * 1 for each token where the constraint left the policy a choice of what the text says, 0 where it
 * did not (a list's label, a bracket, the end of a budget; also where it allowed only other splits of
 * the same text into tokens): such a token's probability under the mask says nothing about the plan,
 * and its gradient would only be noise in the loss.
 */
export function completionMask(constraint: TokenConstraint<unknown>, tokens: readonly number[], maxNewTokens: number): number[] {
  let state = constraint.start();
  return tokens.map((id, i) => {
    const choice = constraint.offersChoice(state, maxNewTokens - i);
    state = constraint.advance(state, id);
    return choice ? 1 : 0;
  });
}
