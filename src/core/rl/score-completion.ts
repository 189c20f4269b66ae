/**
 * One Conductor completion scored as a training rollout scores it: run on the pool as an episode
 * (runEpisode with a fixed Conductor answering that completion; a malformed workflow scores the
 * scheme's formatError without calling a worker), then the reward GRPO would train on, or none where
 * the run hit an infrastructure failure (a worker down, a budget stop) or could not be graded.
 * rolloutGroup and the reward server (src/node/reward-server/) both score through here, so a reward
 * served to an outside trainer is the reward Baton's own loop would have given.
 * Test: test/unit/core/rl/rollout.test.ts, test/unit/node/commands/serve-reward.test.ts.
 */
import type { Episode } from '../episodes/index.ts';
import { createFixedConductor, runEpisode, type BudgetLedger, type CallSlots, type Conductor, type ConductorOutput } from '../orchestra/index.ts';
import type { ChatMessage, WorkerModel } from '../providers/index.ts';
import { PAPER_REWARD, type CodeRunner, type RewardScheme } from '../reward/index.ts';
import type { Task } from '../task.ts';
import { DEFAULT_MAX_STEPS, type AccessMode } from '../workflow/index.ts';
import { mixRecursionReward, PAPER_RECURSION_MIX } from './recursion-reward.ts';

/** The Conductor's answer to a recursion round's messages (round 1, 2, ...). */
type NextRound = (messages: ChatMessage[], round: number) => Promise<ConductorOutput>;

/** Each reward component on its own, so a curve can show which one moved. */
export interface RewardComponents {
  /** The final answer was graded correct (1) or not (0). */
  correct: number;
  /** The workflow parsed (1) or not (0). */
  format: number;
  /** Dollars the workflow's worker calls cost (0 where unknown). */
  costUsd: number;
}

interface ScoreOptions {
  maxSteps?: number;
  access?: AccessMode;
  /** PAPER_REWARD by default; its costWeight is the cost-aware reward's lambda (per dollar). */
  rewardScheme?: Readonly<RewardScheme>;
  /** The episode's group id, and its tags (e.g. the step). */
  group?: string;
  tags?: string[];
  /** Name of the policy in the episode's conductor record. */
  conductorModel?: string;
  /** A dollar cap shared with other runs. */
  budget?: BudgetLedger;
  /** A cap on worker calls in flight shared with other runs. */
  slots?: CallSlots;
  /** The sandbox that grades code tasks (without one their runs are ungraded, so left out of training). */
  codeRunner?: CodeRunner;
  /** The messages the completion answered (default: the Ask prompt); recursion turns continue them. */
  prompt?: ChatMessage[];
  /**
   * Recursion: after the completion's round, the Conductor (nextRound) gets this many more rounds, each
   * seeing the previous round's result; the reward mixes the first round's with the last's (recursion-reward.ts).
   */
  recursion?: { depth: number; nextRound: NextRound; /** d of r = (1 - d) r0 + d r1 (default the paper's 0.25). */ mix?: number };
  signal?: AbortSignal;
}

interface ScoredCompletion {
  episode: Episode;
  /** What GRPO trains on (the scheme's value, cost term included); undefined when the run is left out of training. */
  reward?: number;
  components?: RewardComponents;
}

/** The reward an episode trains with, or undefined for an infrastructure failure or an ungraded run. */
function trainingReward(episode: Episode): Pick<ScoredCompletion, 'reward' | 'components'> {
  const reward = episode.reward;
  if (!reward || reward.infraError) return {};
  return { reward: reward.value, components: { correct: reward.correct ? 1 : 0, format: reward.format ? 1 : 0, costUsd: episode.totals.costUsd ?? 0 } };
}

/** Answers round 0 with the given completion and later rounds through nextRound. */
function recursiveConductor(completion: string, nextRound: NextRound, model = 'policy'): Conductor {
  let round = 0;
  return {
    info: { runtime: 'policy', model },
    generate: async (req) => {
      const r = round++;
      return r === 0 ? { text: completion } : nextRound(req.messages, r);
    },
  };
}

export async function scoreCompletion(task: Task, pool: readonly WorkerModel[], completion: string, options: ScoreOptions = {}): Promise<ScoredCompletion> {
  const recursion = options.recursion && options.recursion.depth > 0 ? options.recursion : undefined;
  const run = await runEpisode({
    task,
    pool: [...pool],
    conductor: recursion
      ? recursiveConductor(completion, recursion.nextRound, options.conductorModel)
      : createFixedConductor(completion, options.conductorModel),
    ...(options.prompt ? { prompt: options.prompt } : {}),
    options: {
      ...(recursion ? { recursionDepth: recursion.depth } : {}),
      maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
      access: options.access ?? 'binary',
      rewardScheme: options.rewardScheme ?? PAPER_REWARD,
      ...(options.group !== undefined ? { group: options.group } : {}),
      tags: options.tags ?? [],
      ...(options.codeRunner ? { codeRunner: options.codeRunner } : {}),
    },
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.slots ? { slots: options.slots } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const episode = recursion
    ? await mixRecursionReward(run, task, {
        mix: recursion.mix ?? PAPER_RECURSION_MIX,
        ...(options.rewardScheme ? { rewardScheme: options.rewardScheme } : {}),
        ...(options.codeRunner ? { codeRunner: options.codeRunner } : {}),
      })
    : run;
  return { episode, ...trainingReward(episode) };
}
