/**
 * A training run's setup, the same for `baton train` and the Train page: the pool and the questions, the
 * Conductor loaded, the engine's policy over it, the LoRA adapter (a new one of the recipe's
 * shape, seeded, or the host's stored one; none when every weight trains), the memory preflight on the
 * longest sequence the run can produce, the trainer, the held-out sample and format-constrained
 * sampling; then runGrpo (or runOfflineGrpo on stored groups) over it, with the host's sinks for
 * checkpoints, episodes and metrics. What differs between hosts comes through training-host.ts's ports.
 * Test: test/unit/core/rl/training/training-session.test.ts; on the engine, through baton train
 * (test/engine/node/commands/train/train.test.ts).
 */
import type { WorkerModel, WorkerSpec } from '../../providers/index.ts';
import { seededRandom } from '../../random.ts';
import type { Task } from '../../task.ts';
import { workflowConstraintFor, type VocabTokenizer } from '../../workflow/constrain/index.ts';
import type { EpisodeGroup } from '../episode-groups.ts';
import { runGrpo, type GrpoDeps, type GrpoRunResult } from '../grpo-loop.ts';
import { runOfflineGrpo, type OfflineGrpoDeps, type OfflineStepMetrics } from '../offline-grpo.ts';
import type { ConstraintForPool } from '../rollout.ts';
import { trainedPrompt, trainedWorkflowFormat } from '../trained-format.ts';
import type { TrainablePolicy } from '../trainable-policy.ts';
import { trainablePolicy } from '../trainable.ts';
import { grpoConfigOf, heldOutSample, offlineGrpoConfigOf, trainedFormatOf, type TrainingRecipe } from './recipe.ts';
import type {
  EngineTrainer,
  EngineTypes,
  LoadedConductor,
  MemoryShape,
  OfflineHost,
  PromptPolicy,
  SamplingHost,
  TrainingEngine,
  TrainingLimits,
} from './training-host.ts';

/** What runGrpo runs over, and how to free it. */
export interface TrainingSession {
  policy: TrainablePolicy;
  pool: WorkerModel[];
  /** The training questions and the held-out sample evaluated. */
  tasks: { train: Task[]; heldOut: Task[] };
  constraint?: ConstraintForPool;
  /** The Conductor's name in the episodes. */
  conductorModel: string;
  close(): void;
}

export interface OfflineTrainingSession {
  policy: TrainablePolicy;
  groups: EpisodeGroup[];
  /** The loaded Conductor's name and tokenizer, for whoever plans with the policy (a check of what it learnt). */
  conductorModel: string;
  tokenizer: VocabTokenizer;
  vocabSize: number;
  close(): void;
}

/** A few tokens of the chat template's assistant prefix, beyond the prompt as rendered. */
const TEMPLATE_SLACK = 8;

/** The longest sequence any of `tasks` can produce, prompt and completion: the memory preflight's length. */
function longestSequence(r: TrainingRecipe, policy: PromptPolicy, tasks: readonly Task[], workers: readonly WorkerSpec[]): number {
  const prompt = trainedPrompt(trainedFormatOf(r));
  const format = { maxSteps: r.maxSteps, access: 'binary' as const };
  return Math.max(...tasks.map((t) => policy.promptIds(prompt(t, workers, format), false).length)) + TEMPLATE_SLACK + r.maxCompletionTokens;
}

/** A micro-batch is one group's (grpoStep): its prompt's rows count once, up to the completions' length. */
const samplingLimits = (r: TrainingRecipe, maxSequenceLength: number): TrainingLimits => ({
  microBatchSequences: r.microBatch,
  maxSequenceLength,
  maxCompletionLength: r.maxCompletionTokens,
});

/** The longest sequence stored groups hold. */
const longestGroupSequence = (groups: readonly EpisodeGroup[]) =>
  Math.max(...groups.map((g) => g.promptIds.length + Math.max(...g.completions.map((c) => c.ids.length))));

/** The trainer, after the engine's memory preflight on `limits`: of the stored adapter, a new one, or every weight. */
function createTrainer<E extends EngineTypes>(
  r: TrainingRecipe,
  engine: TrainingEngine<E>,
  conductor: LoadedConductor<E>,
  limits: TrainingLimits,
): Promise<EngineTrainer> {
  const { model, name } = conductor;
  const newAdapter = () =>
    engine.initLoraAdapter(
      model.config,
      { r: r.lora.r, alpha: r.lora.alpha, targetModules: r.lora.targets, dropout: 0, baseModel: name },
      seededRandom(r.seed),
    );
  const lora = r.full ? undefined : (conductor.adapter ?? newAdapter());
  return engine.GpuTrainer.create(model, {
    ...(lora === undefined ? { wrt: 'weights' as const } : { wrt: 'lora' as const, lora }),
    optimizer: { lr: r.lr },
    limits,
  });
}

function constraintFor<E extends EngineTypes>(r: TrainingRecipe, { tokenizer, model }: LoadedConductor<E>): ConstraintForPool {
  const format = trainedFormatOf(r);
  return (workers, recursion) => workflowConstraintFor(tokenizer, model.config.vocabSize, trainedWorkflowFormat(format, workers, recursion));
}

/** `build` over the loaded Conductor, which is closed again when it fails. */
async function withConductor<E extends EngineTypes, T>(conductor: LoadedConductor<E>, build: (c: LoadedConductor<E>) => Promise<T>): Promise<T> {
  try {
    return await build(conductor);
  } catch (e) {
    conductor.close();
    throw e;
  }
}

export async function openTrainingSession<E extends EngineTypes>(r: TrainingRecipe, host: SamplingHost<E>): Promise<TrainingSession> {
  // The pool and the questions first: a mistake in them shows before the Conductor's long load.
  const [pool, tasks] = await Promise.all([host.pool(), host.tasks()]);
  return withConductor(await host.loadConductor(), async (c) => {
    const sampler = new host.engine.EnginePolicy(c.model, c.tokenizer);
    const heldOut = heldOutSample(tasks.heldOut, r.heldOutSample);
    const longest = longestSequence(
      r,
      sampler,
      [...tasks.train, ...heldOut],
      pool.map((w) => w.spec),
    );
    const trainer = await createTrainer(r, host.engine, c, samplingLimits(r, longest));
    return {
      policy: trainablePolicy(sampler, trainer),
      pool,
      tasks: { train: tasks.train, heldOut },
      ...(r.constrain ? { constraint: constraintFor(r, c) } : {}),
      conductorModel: c.name,
      close: () => {
        trainer.destroy();
        c.close();
      },
    };
  });
}

export async function openOfflineTrainingSession<E extends EngineTypes>(r: TrainingRecipe, host: OfflineHost<E>): Promise<OfflineTrainingSession> {
  return withConductor(await host.loadConductor(), async (c) => {
    const sampler = new host.engine.EnginePolicy(c.model, c.tokenizer);
    const groups = await host.groups({
      promptIds: (messages, continueFinal) => sampler.promptIds(messages, continueFinal),
      encode: (text) => c.tokenizer.encode(text),
    });
    // Stored completions may be of any length: the preflight counts each sequence whole.
    const trainer = await createTrainer(r, host.engine, c, { microBatchSequences: r.microBatch, maxSequenceLength: longestGroupSequence(groups) });
    return {
      policy: trainablePolicy(sampler, trainer),
      groups,
      conductorModel: c.name,
      tokenizer: c.tokenizer,
      vocabSize: c.model.config.vocabSize,
      close: () => {
        trainer.destroy();
        c.close();
      },
    };
  });
}

export interface TrainingEstimate<Memory> {
  memory: Memory;
  maxSequenceLength: number;
  /** The Conductor's name. */
  model: string;
}

/**
 * The GPU memory the run would take, without allocating any: the preflight's sizes for the longest
 * sequence of `tasks`, with the weights stored as `device.weights` and bindings of `device.maxBindingBytes`.
 */
export function estimateTraining<E extends EngineTypes>(
  r: TrainingRecipe,
  engine: TrainingEngine<E>,
  conductor: Pick<LoadedConductor<E>, 'name' | 'model' | 'tokenizer'>,
  data: { tasks: TrainingSession['tasks']; workers: readonly WorkerSpec[] },
  device: Pick<MemoryShape, 'weights' | 'maxBindingBytes'>,
): TrainingEstimate<E['memory']> {
  const sampler = new engine.EnginePolicy(conductor.model, conductor.tokenizer);
  const maxSequenceLength = longestSequence(r, sampler, [...data.tasks.train, ...heldOutSample(data.tasks.heldOut, r.heldOutSample)], data.workers);
  const memory = engine.estimateTrainingMemory(conductor.model.config, {
    weights: device.weights,
    train: r.full ? 'full' : { r: r.lora.r, targetModules: r.lora.targets },
    ...samplingLimits(r, maxSequenceLength),
    maxBindingBytes: device.maxBindingBytes,
  });
  return { memory, maxSequenceLength, model: conductor.name };
}

/** Where a run's results go (checkpoints, episodes, metrics), what stops it, and the checkpoint it resumes from. */
type TrainingSinks = Omit<GrpoDeps, 'policy' | 'pool' | 'tasks' | 'heldOut' | 'constraint'>;

export function runTraining(r: TrainingRecipe, session: TrainingSession, sinks: TrainingSinks): Promise<GrpoRunResult> {
  return runGrpo(grpoConfigOf(r, session.conductorModel), {
    policy: session.policy,
    pool: session.pool,
    tasks: session.tasks.train,
    heldOut: session.tasks.heldOut,
    ...(session.constraint ? { constraint: session.constraint } : {}),
    ...sinks,
  });
}

type OfflineTrainingSinks = Omit<OfflineGrpoDeps, 'policy' | 'groups'>;

export function runOfflineTraining(
  r: TrainingRecipe,
  session: OfflineTrainingSession,
  sinks: OfflineTrainingSinks,
): Promise<{ metrics: OfflineStepMetrics[]; step: number; stopped: boolean }> {
  return runOfflineGrpo(offlineGrpoConfigOf(r, session.groups.length), { policy: session.policy, groups: session.groups, ...sinks });
}
