import { describe, expect, it } from 'vitest';
import type { WorkerModel } from '../../../../../src/core/providers/index.ts';
import {
  compactPrompt,
  estimateTraining,
  openOfflineTrainingSession,
  openTrainingSession,
  type EngineTrainer,
  type EpisodeGroup,
  type LoadedConductor,
  type MemoryShape,
  type NewAdapter,
  type PolicyPrompt,
  type TrainerOptions,
  type TrainingEngine,
  type TrainingRecipe,
} from '../../../../../src/core/rl/index.ts';
import { seededRandom } from '../../../../../src/core/random.ts';
import type { Task, TaskKind } from '../../../../../src/core/task.ts';
import { RECIPE } from './recipe-fixture.ts';

interface Adapter {
  from: 'new' | 'stored';
  /** The first draw of the generator it was made with. */
  draw?: number;
}

interface FakeTypes {
  model: { config: { vocabSize: number } };
  tokenizer: { vocabSize: number; decode(): string; tokenId(): undefined; encode(text: string): number[] };
  adapter: Adapter;
  memory: { shape: MemoryShape };
}

/** One token per character of the prompt's JSON: a prompt's length is easy to work out here. */
const promptIds = (prompt: PolicyPrompt) => (typeof prompt[0] === 'number' ? [...(prompt as number[])] : Array.from(JSON.stringify(prompt), () => 1));

/** The engine's constructors, recording what the session asked of them. */
function fakeEngine(options: { failTrainer?: boolean } = {}) {
  const made = { adapters: [] as NewAdapter[], trainers: [] as TrainerOptions<Adapter>[], destroyed: 0 };
  const trainer = {
    destroy: () => void made.destroyed++,
  } as EngineTrainer;
  const engine: TrainingEngine<FakeTypes> = {
    EnginePolicy: class {
      promptIds = promptIds;
      generateGroup = () => Promise.reject(new Error('not sampled here'));
      logprobs = () => Promise.reject(new Error('not scored here'));
    },
    GpuTrainer: {
      create: async (_model, o) => {
        made.trainers.push(o);
        if (options.failTrainer) throw new Error('does not fit');
        return trainer;
      },
    },
    initLoraAdapter: (_config, lora, random) => {
      made.adapters.push(lora);
      return { from: 'new', draw: random() };
    },
    estimateTrainingMemory: (_config, shape) => ({ shape }),
  };
  return { engine, made };
}

function conductor(adapter?: Adapter): LoadedConductor<FakeTypes> & { closed: number } {
  const c = {
    name: 'models/tiny',
    model: { config: { vocabSize: 64 } },
    tokenizer: { vocabSize: 64, decode: () => '', tokenId: () => undefined, encode: (text: string) => Array.from(text, () => 2) },
    ...(adapter ? { adapter } : {}),
    closed: 0,
    close: () => void c.closed++,
  };
  return c;
}

const worker = (id: string) => ({ spec: { id, provider: 'simulated', model: id } }) as WorkerModel;
const pool = [worker('a'), worker('b')];
const task = (kind: TaskKind, question: string): Task => ({ question, answer: '1', kind });
const train = [task('number', 'What is 1 + 1?'), task('number', 'What is the sum of 20, 30 and 40?')];
const heldOut = [task('mcq', 'Which is largest?'), task('mcq', 'Which is largest of all of these, then?'), task('number', '2 + 2?')];

/** The prompt's tokens, as the fake policy counts them. */
const promptLength = (t: Task, r: TrainingRecipe) =>
  promptIds(
    compactPrompt(
      t,
      pool.map((w) => w.spec),
      { maxSteps: r.maxSteps, access: 'binary' },
    ),
  ).length;

describe('a training session', () => {
  it("puts a new seeded adapter of the recipe's shape on the Conductor, and checks memory for its longest sequence", async () => {
    const { engine, made } = fakeEngine();
    const c = conductor();
    const r = { ...RECIPE, heldOutSample: 2 };
    const session = await openTrainingSession(r, { engine, loadConductor: async () => c, pool: async () => pool, tasks: async () => ({ train, heldOut }) });

    expect(made.adapters).toEqual([{ r: 4, alpha: 8, targetModules: ['q_proj', 'v_proj'], dropout: 0, baseModel: 'models/tiny' }]);
    // The held-out sample, the kinds taking turns: its longer mcq question is not evaluated, so not measured.
    expect(session.tasks).toEqual({ train, heldOut: [heldOut[0], heldOut[2]] });
    const longest = Math.max(...[...train, heldOut[0], heldOut[2]].map((t) => promptLength(t, r))) + 8 + r.maxCompletionTokens;
    expect(made.trainers).toEqual([
      {
        wrt: 'lora',
        lora: { from: 'new', draw: seededRandom(r.seed)() },
        optimizer: { lr: r.lr },
        limits: { microBatchSequences: r.microBatch, maxSequenceLength: longest, maxCompletionLength: r.maxCompletionTokens },
      },
    ]);
    expect(session.constraint).toBeTypeOf('function');
    expect(session.conductorModel).toBe('models/tiny');
    expect(session.pool).toBe(pool);

    session.close();
    expect([made.destroyed, c.closed]).toEqual([1, 1]);
  });

  it('continues a stored adapter, trains every weight with full, and samples unconstrained without constrain', async () => {
    const stored = fakeEngine();
    await openTrainingSession(RECIPE, {
      engine: stored.engine,
      loadConductor: async () => conductor({ from: 'stored' }),
      pool: async () => pool,
      tasks: async () => ({ train, heldOut }),
    });
    expect(stored.made.adapters).toEqual([]);
    expect(stored.made.trainers[0]).toMatchObject({ wrt: 'lora', lora: { from: 'stored' } });

    const full = fakeEngine();
    const session = await openTrainingSession(
      { ...RECIPE, full: true, constrain: false },
      { engine: full.engine, loadConductor: async () => conductor(), pool: async () => pool, tasks: async () => ({ train, heldOut }) },
    );
    expect(full.made.adapters).toEqual([]);
    expect(full.made.trainers[0].wrt).toBe('weights');
    expect(full.made.trainers[0]).not.toHaveProperty('lora');
    expect(session.constraint).toBeUndefined();
    // Without a sample size every held-out question is evaluated, in order.
    expect(session.tasks.heldOut).toEqual(heldOut);
  });

  it('frees the Conductor when the trainer cannot be made, and loads none when the pool fails', async () => {
    const { engine } = fakeEngine({ failTrainer: true });
    const c = conductor();
    await expect(
      openTrainingSession(RECIPE, { engine, loadConductor: async () => c, pool: async () => pool, tasks: async () => ({ train, heldOut }) }),
    ).rejects.toThrow('does not fit');
    expect(c.closed).toBe(1);

    let loaded = 0;
    const loadConductor = async () => (loaded++, conductor());
    await expect(
      openTrainingSession(RECIPE, {
        engine: fakeEngine().engine,
        loadConductor,
        pool: () => Promise.reject(new Error('no key')),
        tasks: async () => ({ train, heldOut }),
      }),
    ).rejects.toThrow('no key');
    expect(loaded).toBe(0);
  });

  it('reads stored groups with the policy and tokenizer of the loaded Conductor, and checks memory for the longest', async () => {
    const { engine, made } = fakeEngine();
    const seen: number[][] = [];
    const groups: EpisodeGroup[] = [
      {
        id: 'g1',
        promptIds: [1, 2, 3],
        completions: [
          { ids: [4, 5], reward: 1 },
          { ids: [6], reward: 0 },
        ],
      },
      {
        id: 'g2',
        promptIds: [1],
        completions: [
          { ids: [4, 5, 6, 7, 8], reward: 1 },
          { ids: [6], reward: 0 },
        ],
      },
    ];
    const session = await openOfflineTrainingSession(RECIPE, {
      engine,
      loadConductor: async () => conductor(),
      groups: async (tokenizer) => {
        seen.push(tokenizer.promptIds([{ role: 'user', content: 'hi' }], false), tokenizer.encode('abc'));
        return groups;
      },
    });
    expect(seen).toEqual([promptIds([{ role: 'user', content: 'hi' }]), [2, 2, 2]]);
    expect(session.groups).toBe(groups);
    // Stored completions may be of any length: no completion bound, the whole longest sequence counted.
    expect(made.trainers[0].limits).toEqual({ microBatchSequences: RECIPE.microBatch, maxSequenceLength: 6 });
  });

  it('estimates memory for the same shape the trainer is checked against, on the device given', () => {
    const { engine } = fakeEngine();
    const r = { ...RECIPE, heldOutSample: 1 };
    const estimate = estimateTraining(
      r,
      engine,
      conductor(),
      { tasks: { train, heldOut }, workers: pool.map((w) => w.spec) },
      { weights: 'f16', maxBindingBytes: 1024 },
    );
    const longest = Math.max(...[...train, heldOut[0]].map((t) => promptLength(t, r))) + 8 + r.maxCompletionTokens;
    expect(estimate).toEqual({
      model: 'models/tiny',
      maxSequenceLength: longest,
      memory: {
        shape: {
          weights: 'f16',
          train: { r: 4, targetModules: ['q_proj', 'v_proj'] },
          microBatchSequences: r.microBatch,
          maxSequenceLength: longest,
          maxCompletionLength: r.maxCompletionTokens,
          maxBindingBytes: 1024,
        },
      },
    });
  });
});
