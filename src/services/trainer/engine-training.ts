/**
 * What a Train page run trains, on Baton's engine in the trainer worker: the Conductor loaded (the
 * conductor service's EngineHost: the same files, cache and progress), a new LoRA adapter on it, a
 * GpuTrainer after the memory preflight on the longest sequence the run can produce, the pool's workers,
 * the experts task set and format-constrained sampling. The browser twin of `baton train`'s setup
 * (src/node/commands/train.ts); the loop itself is core/rl's runGrpo, run by trainer-service.ts.
 */
import { BatonError } from '../../core/errors/index.ts';
import type { WorkerModel, WorkerSpec } from '../../core/providers/index.ts';
import { loadReplay } from '../../core/providers/replay/index.ts';
import { seededRandom } from '../../core/random.ts';
import { compactPrompt, trainablePolicy, trainedWorkflowFormat, type ConstraintForPool, type TrainablePolicy } from '../../core/rl/index.ts';
import type { Task, TaskSplit } from '../../core/task.ts';
import { initLoraAdapter, type ModelConfig } from '../../engine/model/index.ts';
import type { Tokenizer } from '../../engine/tokenizer/index.ts';
import type { TrainingMemory } from '../../engine/train/index.ts';
import { buildWorker, describeSource, EngineHost, type EngineModelChoice, type LoadProgress } from '../conductor/index.ts';
import { trainingTasks } from './training-tasks.ts';
import { trainedFormatOf, type TrainingConfig } from './training-config.ts';

/** What runGrpo runs over, and how to free it. */
export interface TrainingSession {
  policy: TrainablePolicy;
  pool: WorkerModel[];
  tasks: TaskSplit;
  constraint?: ConstraintForPool;
  /** The Conductor's name in the episodes. */
  conductorModel: string;
  close(): void;
}

/** `signal` stops a model load in progress (a Pause or Stop while the run starts). */
export type PrepareTraining = (config: TrainingConfig, keys: Record<string, string>, onPhase: (phase: string) => void, signal?: AbortSignal) => Promise<TrainingSession>;

/** The adapter modules a new LoRA trains (baton train's default). */
export const LORA_TARGETS = ['q_proj', 'v_proj'];
/** The workflow format the run samples and the constraint allows: the lists alone, binary access. */
const formatOf = (config: TrainingConfig) => ({ maxSteps: config.maxSteps, access: 'binary' as const });

/** The engine model a run trains: f32 on the demo (software GPUs have no f16), the GPU's best otherwise. */
export const modelChoiceOf = (config: TrainingConfig): EngineModelChoice => ({ source: config.model, weights: config.model.from === 'demo' ? 'f32' : 'auto' });

/** The held-out questions evaluated: `n` of them, the kinds taking turns, so both are measured. */
export function heldOutSample(heldOut: readonly Task[], n: number): Task[] {
  const kinds = [...new Set(heldOut.map((t) => t.kind))];
  const byKind = kinds.map((kind) => heldOut.filter((t) => t.kind === kind));
  const picked: Task[] = [];
  for (let i = 0; picked.length < Math.min(n, heldOut.length); i++) for (const kind of byKind) if (i < kind.length && picked.length < n) picked.push(kind[i]);
  return picked;
}

/** The longest sequence any question of the run can produce, prompt and completion (the preflight's length). */
function longestSequence(config: TrainingConfig, tokenizer: Tokenizer, tasks: TaskSplit): number {
  const prompts = [...tasks.train, ...heldOutSample(tasks.heldOut, config.heldOut)].map((t) => tokenizer.encodeChat(compactPrompt(t, config.pool, formatOf(config)), { continueFinal: false }).length);
  // A few tokens of the chat template's assistant prefix, as baton train allows.
  return Math.max(...prompts) + 8 + config.maxCompletionTokens;
}

/** A micro-batch is one group (the service's microBatchSize): its prompt's rows count once, up to the completions' length. */
const limitsFor = (config: TrainingConfig, maxSequenceLength: number) => ({
  microBatchSequences: config.group,
  maxSequenceLength,
  maxCompletionLength: config.maxCompletionTokens,
});

export interface TrainingEstimate {
  memory: TrainingMemory;
  maxSequenceLength: number;
  model: string;
}

/** WebGPU's default per-binding limit: the estimate assumes no more. */
const DEFAULT_BINDING_BYTES = 128 * 2 ** 20;

export async function estimateFor(config: TrainingConfig, modelConfig: ModelConfig, tokenizer: Tokenizer, tasks: TaskSplit): Promise<TrainingEstimate> {
  // The engine's modules load with the first run or estimate, as the Conductor worker's do.
  const { estimateTrainingMemory } = await import('../../engine/train/index.ts');
  const maxSequenceLength = longestSequence(config, tokenizer, tasks);
  const weights = modelChoiceOf(config).weights;
  const memory = estimateTrainingMemory(modelConfig, {
    weights: weights === 'auto' ? 'f16' : weights,
    train: { r: config.r, targetModules: LORA_TARGETS },
    ...limitsFor(config, maxSequenceLength),
    maxBindingBytes: DEFAULT_BINDING_BYTES,
  });
  return { memory, maxSequenceLength, model: describeSource(config.model) };
}

async function poolOf(specs: readonly WorkerSpec[], keys: Record<string, string>, seed: number): Promise<WorkerModel[]> {
  const replay = specs.some((w) => w.provider === 'replay') ? (await loadReplay(indexedDB))?.table : undefined;
  // Simulated workers draw from the run's seed, as baton train's pool does.
  return Promise.all(specs.map((spec) => buildWorker(spec.simulated ? { ...spec, simulated: { ...spec.simulated, seed } } : spec, keys, replay)));
}

const MB = 2 ** 20;

/** A model load's progress in words, for the page's phase line. */
function loadPhase(name: string, p: LoadProgress): string {
  if (p.unit === 'items') return `Copying ${name} to the GPU: ${p.loaded} of ${p.total ?? '?'} tensors`;
  return `Downloading ${name}: ${(p.loaded / MB).toFixed(1)}${p.total === undefined ? '' : ` of ${(p.total / MB).toFixed(1)}`} MB`;
}

export function engineTraining(host = new EngineHost()): { prepare: PrepareTraining; estimate: (config: TrainingConfig) => Promise<TrainingEstimate> } {
  const loadModel = async (config: TrainingConfig, onPhase: (phase: string) => void, signal?: AbortSignal) => {
    const support = await host.support();
    if (!support.ok) throw new BatonError({ code: 'engine/no-adapter', message: `${support.message} Training runs on the GPU through WebGPU, so it cannot run in this tab: the Conductor page's "Your GPU in this browser" says what to do.` });
    const name = describeSource(config.model);
    onPhase(`Loading ${name}`);
    return host.ready(modelChoiceOf(config), (p) => onPhase(loadPhase(name, p)), signal);
  };
  return {
    async estimate(config) {
      const [loaded, tasks] = await Promise.all([loadModel(config, () => {}), trainingTasks(config.tasks, config.seed)]);
      return estimateFor(config, loaded.model.config, loaded.tokenizer, tasks);
    },
    async prepare(config, keys, onPhase, signal) {
      const [loaded, tasks, pool] = await Promise.all([loadModel(config, onPhase, signal), trainingTasks(config.tasks, config.seed), poolOf(config.pool, keys, config.seed)]);
      const { model, tokenizer } = loaded;
      onPhase('Preparing the trainer');
      const [{ EnginePolicy }, { GpuTrainer }, { workflowConstraintFor }] = await Promise.all([
        import('../../engine/index.ts'),
        import('../../engine/train/index.ts'),
        import('../../core/workflow/constrain/index.ts'),
      ]);
      const lora = initLoraAdapter(
        model.config,
        { r: config.r, alpha: 2 * config.r, targetModules: LORA_TARGETS, dropout: 0, baseModel: describeSource(config.model) },
        seededRandom(config.seed),
      );
      const trainer = await GpuTrainer.create(model, {
        wrt: 'lora',
        lora,
        optimizer: { lr: config.lr },
        limits: limitsFor(config, longestSequence(config, tokenizer, tasks)),
      });
      const format = trainedFormatOf(config);
      return {
        policy: trainablePolicy(new EnginePolicy(model, tokenizer), trainer),
        pool,
        tasks: { train: tasks.train, heldOut: heldOutSample(tasks.heldOut, config.heldOut) },
        constraint: (workers, recursion) => workflowConstraintFor(tokenizer, model.config.vocabSize, trainedWorkflowFormat(format, workers, recursion)),
        conductorModel: describeSource(config.model),
        close: () => {
          trainer.destroy();
          // The model goes back to its own weights: nothing else in this worker samples with the run's adapter.
          void model.setLora(undefined).catch(() => {});
        },
      };
    },
  };
}
