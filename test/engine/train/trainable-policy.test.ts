/**
 * The loop GRPO runs, on the engine: sample a group from the policy, reward it, trainStep, sample
 * again. The trap other trainers fell into (rollouts after an update still sampled by the initial
 * policy) is checked directly: the logprobs recorded while sampling after a step are those of a model
 * loaded afresh with the adapter the step produced, and differ from the first adapter's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random.ts';
import {
  loraState,
  trainablePolicy,
  type GrpoBatch,
  type LoraTrainingState,
  type SampledCompletion,
  type TrainablePolicy,
  type TrainStepOptions,
} from '../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../src/engine/model/files-node.ts';
import { filesFromMemory, initLoraAdapter, openModel, readPeftAdapter, type OpenedModel } from '../../../src/engine/model/index.ts';
import { EnginePolicy, GpuModel } from '../../../src/engine/runtime/index.ts';
import { loadTokenizer, type Tokenizer } from '../../../src/engine/tokenizer/index.ts';
import { GpuTrainer } from '../../../src/engine/train/index.ts';
import { writeTinyModel } from '../../support/tiny-model.ts';
import { useTestDevice } from '../../support/webgpu.ts';
import { ALL_PROJECTIONS } from './fixtures.ts';

const OPTIONS: TrainStepOptions = {
  grpo: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.28, lossType: 'bnpo', maxCompletionLength: 6 },
  scaleRewards: 'group',
  temperature: 1,
  microBatchSize: 2,
};
const PROMPT = [5, 17, 30, 2];

describe('trainablePolicy over EnginePolicy and GpuTrainer', () => {
  const device = useTestDevice();
  let dir: string;
  let opened: OpenedModel;
  let tokenizer: Tokenizer;
  let model: GpuModel;
  let policy: TrainablePolicy;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-trainable-'));
    await writeTinyModel(dir, { architecture: 'qwen3', dtype: 'F32', seed: 5, hidden: 16, heads: 2, kvHeads: 1, layers: 2, tokenizer: 'small', vocab: 300 });
    const files = filesFromDir(dir);
    opened = await openModel(files);
    tokenizer = await loadTokenizer(files);
    model = await GpuModel.load(device(), opened, { weights: 'f32' });
    const lora = initLoraAdapter(opened.config, { r: 4, alpha: 8, targetModules: ALL_PROJECTIONS, dropout: 0 }, seededRandom(2));
    const trainer = await GpuTrainer.create(model, { wrt: 'lora', lora, optimizer: { lr: 0.05 } });
    policy = trainablePolicy(new EnginePolicy(model, tokenizer), trainer);
  });
  afterAll(async () => {
    model?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  /** A group sampled now, rewarded by how many even token ids it holds (a rule the adapter can learn). */
  async function rollout(seed: number): Promise<{ group: SampledCompletion[]; batch: GrpoBatch }> {
    const group = await policy.generateGroup(PROMPT, { n: 4, maxNewTokens: 6, sampling: { temperature: 1, seed } });
    const completions = group.map((c) => ({ ids: c.tokens, reward: c.tokens.filter((t) => t % 2 === 0).length / c.tokens.length, oldLogprobs: c.logprobs }));
    return { group, batch: { groups: [{ promptIds: PROMPT, completions }] } };
  }

  /** The logprobs a model loaded afresh with this adapter gives the completion's tokens. */
  async function freshLogprobs(state: LoraTrainingState, c: SampledCompletion): Promise<number[]> {
    const fresh = await GpuModel.load(device(), opened, { weights: 'f32' });
    try {
      const files = filesFromMemory('state', {
        'adapter_config.json': new TextEncoder().encode(state.adapterConfig),
        'adapter_model.safetensors': state.adapter,
      });
      await fresh.setLora(await readPeftAdapter(files, opened.config));
      return Array.from(await fresh.logprobs([...PROMPT, ...c.tokens])).slice(PROMPT.length - 1);
    } finally {
      fresh.destroy();
    }
  }

  it('samples the next group with the weights the step left, not the first ones', async () => {
    const first = await rollout(1);
    const before = loraState(await policy.exportState());
    const result = await policy.trainStep(first.batch, OPTIONS);
    expect(result).toMatchObject({ step: 1, tokens: first.group.reduce((n, c) => n + c.tokens.length, 0) });
    expect(result.skipped).toBeUndefined();
    const after = loraState(await policy.exportState());

    const next = await rollout(2);
    expect(next.group).toHaveLength(4);
    for (const c of next.group) {
      expect(c.logprobs).toHaveLength(c.tokens.length);
      const updated = await freshLogprobs(after, c);
      const initial = await freshLogprobs(before, c);
      updated.forEach((lp, i) => expect(Math.abs(lp - c.logprobs[i])).toBeLessThan(1e-4));
      expect(Math.max(...initial.map((lp, i) => Math.abs(lp - c.logprobs[i])))).toBeGreaterThan(1e-3);
    }
  });

  it('carries on from an exported state exactly as without the export', async () => {
    const { batch } = await rollout(3);
    const saved = await policy.exportState();
    const a = await policy.trainStep(batch, OPTIONS);
    const stateA = loraState(await policy.exportState());
    await policy.importState(saved);
    const b = await policy.trainStep(batch, OPTIONS);
    const stateB = loraState(await policy.exportState());
    expect(b.loss).toBe(a.loss);
    expect(b.gradNorm).toBe(a.gradNorm);
    expect(Buffer.from(stateB.adapter).equals(Buffer.from(stateA.adapter))).toBe(true);
    expect(Buffer.from(stateB.optimizer).equals(Buffer.from(stateA.optimizer))).toBe(true);
  });
});
