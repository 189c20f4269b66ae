/**
 * "Train on my choices": offline GRPO (core/rl's offline training session, what `baton train
 * --from-episodes` runs) on the user's own groups, its comparisons with a pick and its answers rated up and
 * down (core/rl's userChoices), checked on the user's later picks. The picks are split by time: the latest
 * `heldOutShare` are held out; the Conductor is asked for its plan on each of them before training and
 * again after (pick-agreement.ts), so the user sees both figures before the trained Conductor replaces
 * the current one. One host port for both hosts: the tab's trainer worker and the engine tests on Dawn.
 * Test: test/engine/core/conductor/learns-user-choices.test.ts (the goal: 30 picks teach a Conductor
 * the user's workers per kind).
 */
import type { Episode } from '../episodes/index.ts';
import { BatonError } from '../errors/index.ts';
import {
  choiceEpisodes,
  groupsOfEpisodes,
  openOfflineTrainingSession,
  runOfflineTraining,
  splitPicksByTime,
  TRAINING_DEFAULTS,
  userChoices,
  type EngineTypes,
  type OfflineHost,
  type OfflineStepMetrics,
  type TrainedFormat,
  type TrainingRecipe,
  type TrainingState,
} from '../rl/index.ts';
import type { EngineModelChoice } from './conductor-choice.ts';
import { pickAgreement, type PickAgreement } from './pick-agreement.ts';

export interface ChoiceTrainingSettings {
  /** Passes over the groups. */
  passes: number;
  groupsPerStep: number;
  lr: number;
  /** LoRA rank (alpha 2r, on every projection: a small Conductor's routing needs more than q and v). */
  r: number;
  /** The latest share of the picks held out for the check. */
  heldOutShare: number;
  seed: number;
}

/**
 * What suits a small Conductor and a few dozen picks (the goal test's settings). Every pick group holds
 * each of the compared plans, so a group's advantages sum to zero and its pull on the Conductor's choice
 * does not weaken as the choice moves: at 5e-2 the rise shared by both kinds' picked workers outran the
 * per-kind difference and sent every question to one worker (5 of 10 held-out picks); 1e-2 over four
 * passes learnt both kinds (10 of 10).
 */
export const CHOICE_TRAINING: ChoiceTrainingSettings = { passes: 4, groupsPerStep: 5, lr: 1e-2, r: 8, heldOutShare: 0.25, seed: 0 };

const ALL_PROJECTIONS = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'];

export interface ChoiceTrainingResult {
  /** Picks trained on and held out, and rated prompts trained on. */
  picks: { train: number; heldOut: number };
  ratedPrompts: number;
  /** The held-out check: the Conductor training started from, and the trained one. */
  before: PickAgreement;
  after: PickAgreement;
  metrics: OfflineStepMetrics[];
  /** The trained adapter (or weights). */
  state: TrainingState;
}

/** The offline run's recipe: TRAINING_DEFAULTS' loss, the Conductor's own format, one pass `passes` times. */
function choiceRecipe(s: ChoiceTrainingSettings, format: TrainedFormat, groups: number): TrainingRecipe {
  const { mu, beta, epsilon, lossType, scaleRewards, temperature, costWeight } = TRAINING_DEFAULTS;
  return {
    lora: { r: s.r, alpha: 2 * s.r, targets: ALL_PROJECTIONS },
    steps: s.passes * Math.ceil(groups / s.groupsPerStep),
    questions: s.groupsPerStep,
    group: 2,
    mu,
    lr: s.lr,
    beta,
    epsilon,
    epsilonHigh: epsilon,
    lossType,
    scaleRewards,
    temperature,
    maxCompletionTokens: 256,
    constrain: format.constrain,
    ...(format.fixedSubtasks ? { fixedSubtasks: true } : {}),
    ...(format.maxSubtaskChars === undefined ? {} : { maxSubtaskChars: format.maxSubtaskChars }),
    prompt: format.prompt,
    maxSteps: format.maxSteps,
    costWeight,
    evalEvery: 0,
    checkpointEvery: 1_000_000,
    microBatch: 8,
    seed: s.seed,
  };
}

export interface ChoiceTrainingDeps<E extends EngineTypes> extends Omit<OfflineHost<E>, 'groups'> {
  /** The Conductor as Ask runs it (for the check), and the format it was trained in (its conductor.json). */
  choice: EngineModelChoice;
  format: TrainedFormat;
  signal?: AbortSignal;
  onPhase?(phase: string): void;
  onStep?(metrics: OfflineStepMetrics, steps: number): void;
}

export async function trainOnChoices<E extends EngineTypes>(
  episodes: Iterable<Episode>,
  settings: ChoiceTrainingSettings,
  deps: ChoiceTrainingDeps<E>,
): Promise<ChoiceTrainingResult> {
  const { picks, ratings } = userChoices(episodes);
  const { train, heldOut } = splitPicksByTime(picks, settings.heldOutShare);
  if (train.length + ratings.length === 0)
    throw new BatonError({
      code: 'run/config',
      message:
        picks.length === 1
          ? 'One pick is not enough to train on and check: compare and pick on a few more questions.'
          : 'There are no picks or ratings to learn from yet: compare workflows on the Ask page and pick the best, or rate answers up and down.',
    });
  const stored = choiceEpisodes(train, ratings);
  deps.onPhase?.('Loading the Conductor');
  const session = await openOfflineTrainingSession(choiceRecipe(settings, deps.format, 1), {
    engine: deps.engine,
    loadConductor: deps.loadConductor,
    groups: async (tokenizer) => groupsOfEpisodes(stored, tokenizer).groups,
  });
  try {
    const recipe = choiceRecipe(settings, deps.format, session.groups.length);
    const loaded = { policy: session.policy, tokenizer: session.tokenizer, vocabSize: session.vocabSize, model: session.conductorModel, format: deps.format };
    const check = () => pickAgreement(loaded, deps.choice, heldOut, deps.signal);
    deps.onPhase?.(`Checking the current Conductor on your ${heldOut.length} latest picks`);
    const before = await check();
    deps.onPhase?.(`Training on ${session.groups.length} groups`);
    const run = await runOfflineTraining(recipe, session, {
      ...(deps.signal ? { signal: deps.signal } : {}),
      onStep: (m) => deps.onStep?.(m, recipe.steps),
    });
    // Stopped: there is no trained Conductor to check or use.
    deps.signal?.throwIfAborted();
    deps.onPhase?.(`Checking the trained Conductor on your ${heldOut.length} latest picks`);
    const after = await check();
    return {
      picks: { train: train.length, heldOut: heldOut.length },
      ratedPrompts: ratings.length,
      before,
      after,
      metrics: run.metrics,
      state: await session.policy.exportState(),
    };
  } finally {
    session.close();
  }
}
