/**
 * The GRPO loop over any TrainablePolicy: each step draws Q questions, samples G plans of each from the
 * current policy (rolloutGroup), runs and scores them on the pool, and takes one optimiser step on the
 * groups (old_logprobs = the sampling logprobs, so the ratio is exact even when the sampler's numerics
 * differ from the trainer's). Reports metrics per step, held-out accuracy every evalEvery steps, and
 * saves a checkpoint every checkpointEvery steps, at the end, and when stopped through the signal.
 *
 * Randomness: step s draws its questions and sampling seeds from seededRandom(hash(seed, s)) alone, so
 * the RNG state is (seed, step) and a run resumed from a checkpoint continues the very stream it would
 * have drawn without the stop. Simulated workers are deterministic in what they are asked.
 *
 * Worker calls: every call of a step (all G plans of all Q questions run at once) waits for its
 * provider's slot (limitPerProvider), and the step's calls share one response cache, so an identical
 * call is paid once; each step starts with an empty cache, so a resumed run pays and draws what the
 * whole run would have (the cache is not checkpointed), and a long run's cache stays small.
 * Test: test/unit/core/rl/grpo-loop.test.ts; on the engine, through baton train: test/engine/node/commands/train/train.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import type { Episode } from '../episodes/index.ts';
import { limitPerProvider, ResponseCache, type ProviderConcurrency } from '../orchestra/index.ts';
import type { WorkerModel } from '../providers/index.ts';
import { hashString, seededRandom } from '../random.ts';
import type { CodeRunner, RewardScheme } from '../reward/index.ts';
import type { Task } from '../task.ts';
import type { AccessMode } from '../workflow/index.ts';
import type { GrpoBatch } from './grpo-batch.ts';
import { rolloutGroup, type ConductorPromptFor, type ConstraintForPool, type RolloutGroup } from './rollout.ts';
import { RunCheckpoints, type CheckpointStore, type GrpoCheckpoint } from './run-checkpoints.ts';
import type { TrainablePolicy, TrainStepOptions, TrainStepResult } from './trainable-policy.ts';
import { dollarsOf, stepMetrics, type GrpoStepMetrics, type HeldOut } from './step-metrics.ts';

export interface GrpoConfig {
  /** Optimiser steps of the whole run (a resumed run counts the ones already taken). */
  steps: number;
  /** Questions per step (Q). */
  questionsPerStep: number;
  /** Completions per question (G). */
  groupSize: number;
  /** Each training question's group is every one-step plan, one per worker it sees (every-plan.ts), instead of groupSize samples. */
  everyPlan?: boolean;
  /**
   * Randomised pools (the paper's): each training question sees this many of the workers, drawn and
   * shuffled, as model ids 0..poolSize - 1. Absent: the whole pool in order. Held-out questions see the whole pool.
   */
  poolSize?: number;
  maxCompletionTokens: number;
  /** Sampling temperature; the loss divides logits by it too. */
  temperature: number;
  /** Updates on each step's batch (mu, TRL's num_iterations; default 1); old_logprobs stay the sampling ones. */
  iterations?: number;
  /** The update: GRPO loss options, reward scaling, micro-batch size. */
  train: Omit<TrainStepOptions, 'temperature' | 'signal'>;
  seed: number;
  maxSteps?: number;
  access?: AccessMode;
  /** The Conductor's messages for a question (default the Ask path's prompt). */
  prompt?: ConductorPromptFor;
  /** PAPER_REWARD by default; costWeight is the cost-aware reward's lambda. */
  rewardScheme?: Readonly<RewardScheme>;
  /** Held-out accuracy every this many steps (0 or absent: never); only at multiples, so a resumed run measures where the whole one would. */
  evalEvery?: number;
  /** Temperature of the one held-out sample per question: 0 (greedy) by default. */
  evalTemperature?: number;
  /** A checkpoint every this many steps, and one at the end and when stopped. */
  checkpointEvery?: number;
  /** Dollars the run may spend on worker calls, held-out evaluation included: no step starts once they are spent. */
  budgetUsd?: number;
  /** The policy's name in the episodes. */
  conductorModel?: string;
  /** Worker calls in flight per provider (default DEFAULT_PROVIDER_CONCURRENCY: 8 per network API, simulated and replay uncapped). */
  concurrency?: ProviderConcurrency;
  /**
   * A step's identical worker calls (same worker, messages and settings) are sent once and share the
   * response (default on): the dollars paid drop, each workflow's cost term still counts its calls,
   * and workers sampling at temperature > 0 give identical calls one shared sample.
   */
  responseCache?: boolean;
  /** Recursion rounds after the first (default 0): the Conductor sees its first round's result and may write a new workflow. */
  recursionDepth?: number;
  /** d of the recursion reward r = (1 - d) r0 + d r1 that the first round's completion trains on (default the paper's 0.25). */
  recursionMix?: number;
}

export interface GrpoDeps {
  policy: TrainablePolicy;
  pool: readonly WorkerModel[];
  tasks: readonly Task[];
  heldOut: readonly Task[];
  /** Format-constrained sampling for a pool size (the engine's tokenizer builds it). */
  constraint?: ConstraintForPool;
  /** The sandbox that grades code tasks (a worker thread in Node, a web worker in the tab). */
  codeRunner?: CodeRunner;
  /** Continue this run instead of starting afresh. */
  resume?: GrpoCheckpoint;
  checkpoints?: CheckpointStore;
  onStep?(metrics: GrpoStepMetrics): void;
  /** Every rollout of a step, tagged with its group id and step (held-out ones included). */
  onEpisodes?(episodes: Episode[]): void;
  /** Stops the run between or inside steps; the last finished step is checkpointed. */
  signal?: AbortSignal;
}

export interface GrpoRunResult {
  metrics: GrpoStepMetrics[];
  /** Steps finished, those of a resumed run's earlier part included. */
  step: number;
  stopped: boolean;
  /** The run ended early because budgetUsd was spent. */
  overBudget: boolean;
}

const config = (message: string): never => {
  throw new BatonError({ code: 'run/config', message });
};

/** The step's own generator: the same (seed, step) always draws the same questions and seeds. */
const stepRandom = (seed: number, step: number) => seededRandom(hashString(`grpo ${seed} step ${step}`));

/** k distinct indices below count, in random order (a partial Fisher-Yates shuffle). */
function drawDistinct(count: number, k: number, random: () => number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (count - i));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.slice(0, k);
}

/** The groups that still hold a scored completion, as the trainer reads them. */
function batchOf(groups: readonly RolloutGroup[]): GrpoBatch {
  return {
    groups: groups
      .filter((g) => g.samples.length > 0)
      .map((g) => ({
        promptIds: g.promptIds,
        completions: g.samples.map((s) => ({
          ids: s.completion.tokens,
          reward: s.reward,
          oldLogprobs: s.completion.logprobs,
          ...(s.mask ? { mask: s.mask } : {}),
        })),
      })),
  };
}

export async function runGrpo(cfg: GrpoConfig, deps: GrpoDeps): Promise<GrpoRunResult> {
  const { policy, tasks, signal } = deps;
  const pool = limitPerProvider(deps.pool, cfg.concurrency);
  if (cfg.questionsPerStep > tasks.length)
    config(`${cfg.questionsPerStep} questions per step but only ${tasks.length} training tasks: lower --questions or add tasks.`);
  if (cfg.poolSize !== undefined && !(Number.isInteger(cfg.poolSize) && cfg.poolSize >= 1 && cfg.poolSize <= pool.length)) {
    config(`poolSize must be a whole number from 1 to the pool's ${pool.length} workers, got ${cfg.poolSize}.`);
  }
  if (cfg.everyPlan) {
    if ((cfg.poolSize ?? pool.length) < 2) config('Every plan needs a pool of at least 2 workers to compare.');
  } else if (!(cfg.groupSize >= 2)) config(`A group needs at least 2 completions to compare, got ${cfg.groupSize}.`);
  const iterations = cfg.iterations ?? 1;
  if (!Number.isInteger(iterations) || iterations < 1) config(`iterations (mu) must be a whole number >= 1, got ${iterations}.`);
  const run = await RunCheckpoints.open(cfg.seed, policy, deps.resume, deps.checkpoints);
  /** The workers as one step calls them: through a cache of the step's own, when it is on. */
  const stepPool = () => {
    const cache = cfg.responseCache === false ? undefined : new ResponseCache();
    return cache ? pool.map((w) => cache.wrap(w)) : pool;
  };
  const rollout = (task: Task, workers: readonly WorkerModel[], n: number | 'every', temperature: number, seed: number, group: string, tags: string[]) =>
    rolloutGroup(task, workers, policy, {
      n: n === 'every' ? workers.length : n,
      ...(n === 'every' ? { everyPlan: true } : {}),
      maxCompletionTokens: cfg.maxCompletionTokens,
      temperature,
      seed,
      group,
      tags,
      ...(cfg.maxSteps === undefined ? {} : { maxSteps: cfg.maxSteps }),
      ...(cfg.access ? { access: cfg.access } : {}),
      ...(cfg.prompt ? { prompt: cfg.prompt } : {}),
      ...(cfg.rewardScheme ? { rewardScheme: cfg.rewardScheme } : {}),
      ...(deps.constraint ? { constraint: deps.constraint } : {}),
      ...(deps.codeRunner ? { codeRunner: deps.codeRunner } : {}),
      ...(cfg.conductorModel ? { conductorModel: cfg.conductorModel } : {}),
      ...(cfg.recursionDepth ? { recursionDepth: cfg.recursionDepth } : {}),
      ...(cfg.recursionMix === undefined ? {} : { recursionMix: cfg.recursionMix }),
      ...(signal ? { signal } : {}),
    });

  let overBudget = false;
  const { stopped } = await run.runUntilStopped(signal, async () => {
    while (run.step < cfg.steps) {
      signal?.throwIfAborted();
      if (cfg.budgetUsd !== undefined && run.metrics.reduce((usd, m) => usd + m.spentUsd, 0) >= cfg.budgetUsd) {
        overBudget = true;
        return;
      }
      const started = performance.now();
      const next = run.step + 1;
      const random = stepRandom(cfg.seed, next);
      const picked = drawDistinct(tasks.length, cfg.questionsPerStep, random);
      const seeds = picked.map(() => Math.floor(random() * 2 ** 31));
      // Randomised pools: each question sees poolSize of the workers, shuffled; view[i] is model id i's worker.
      const views = picked.map(() => (cfg.poolSize ? drawDistinct(pool.length, cfg.poolSize, random) : pool.map((_, i) => i)));
      const workers = stepPool();
      // Every question's group runs at once, so the per-provider caps, not the loop, pace the calls.
      const groups: RolloutGroup[] = await Promise.all(
        picked.map((t, q) =>
          rollout(
            tasks[t],
            views[q].map((i) => workers[i]),
            cfg.everyPlan ? 'every' : cfg.groupSize,
            cfg.temperature,
            seeds[q],
            `grpo-${cfg.seed}/step-${next}/q-${q}`,
            [`step:${next}`, 'train'],
          ),
        ),
      );
      deps.onEpisodes?.(groups.flatMap((g) => [...g.samples.map((s) => s.episode), ...g.excluded]));
      const batch = batchOf(groups);
      // Once the update starts it finishes: a stop then takes effect after it, so no step is half applied.
      const updates: TrainStepResult[] = [];
      if (batch.groups.length > 0) {
        for (let k = 0; k < iterations; k++) updates.push(await policy.trainStep(batch, { ...cfg.train, temperature: cfg.temperature }));
      }
      run.step = next;
      const step = next;
      let heldOut: HeldOut | undefined;
      if (cfg.evalEvery && deps.heldOut.length > 0 && step % cfg.evalEvery === 0) {
        const evalPool = stepPool();
        const sample = (task: Task, i: number) =>
          rollout(task, evalPool, 1, cfg.evalTemperature ?? 0, cfg.seed + i, `grpo-${cfg.seed}/eval-${step}/q-${i}`, [`step:${step}`, 'held-out']);
        // The update is applied by now: a stop during the evaluation still records the step (unmeasured) and checkpoints it.
        heldOut = await heldOutAccuracy(deps, sample).catch((e) => {
          if (signal?.aborted) return undefined;
          throw e;
        });
      }
      const m = stepMetrics(step, groups, views, pool.length, updates, heldOut, performance.now() - started);
      deps.onStep?.(m);
      await run.finish(m, cfg.checkpointEvery);
    }
  });
  return { metrics: run.metrics, step: run.step, stopped, overBudget };
}

/** Share of held-out questions whose one sample was graded correct (infrastructure failures left out), and the evaluation's dollars. */
async function heldOutAccuracy(deps: GrpoDeps, sample: (task: Task, i: number) => Promise<RolloutGroup>): Promise<HeldOut> {
  // Every question at once, as a step's groups: the policy writes one plan at a time while the workers' calls
  // overlap, where one question after another would wait out each workflow's calls in turn.
  const groups = await Promise.all(deps.heldOut.map((task, i) => sample(task, i)));
  const episodes = groups.flatMap((g) => [...g.samples.map((s) => s.episode), ...g.excluded]);
  deps.onEpisodes?.(episodes);
  const outcomes = groups.flatMap((g) => g.samples.map((s) => s.components.correct));
  return { accuracy: outcomes.length === 0 ? 0 : outcomes.reduce((a, b) => a + b, 0) / outcomes.length, costUsd: dollarsOf(episodes) };
}
