/** `baton grpo-step` in-process on a tiny BF16 Qwen3, against grpoStep over the float64 reference trainer. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpoStep, type GrpoBatch } from '../../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../../src/engine/model/files-node.ts';
import { decodeTensor, headerLength, openModel, parseHeader, readPeftAdapter, type LoraAdapter } from '../../../../src/engine/model/index.ts';
import { loadRefModel, refLogprobs, type RefModel } from '../../../../src/engine/runtime/index.ts';
import { main } from '../../../../src/node/main.ts';
import { checkTensor } from '../../../support/check-tensor.ts';
import { recordingIo } from '../../../support/cli-io.ts';
import { writeRandomAdapter, writeTinyModel } from '../../../support/tiny-model.ts';
import { CapturingRef, float64Copy, withOldLogprobs } from '../../train/fixtures.ts';

const BATCH: GrpoBatch = withOldLogprobs(
  {
    groups: [
      {
        promptIds: [3, 9, 14],
        completions: [
          { ids: [5, 7, 2], reward: 1 },
          { ids: [30], reward: 0 },
          { ids: [11, 11, 6, 1], reward: 0.5 },
        ],
      },
      {
        promptIds: [20, 4],
        completions: [
          { ids: [8, 33], reward: 0 },
          { ids: [17, 2, 25], reward: 1 },
        ],
      },
    ],
  },
  5,
);
const LR = 1e-3;

/** The batch file as grpo-batch.ts reads it. */
const batchFile = (b: GrpoBatch) =>
  JSON.stringify({
    groups: b.groups.map((g) => ({
      prompt_ids: g.promptIds,
      completions: g.completions.map((c) => ({ ids: c.ids, reward: c.reward, old_logprobs: c.oldLogprobs })),
    })),
  });

async function readTensors(path: string): Promise<Map<string, Float32Array>> {
  const bytes = new Uint8Array(await readFile(path));
  const n = headerLength(bytes.subarray(0, 8), path, bytes.byteLength);
  const infos = parseHeader(bytes.subarray(8, 8 + n), path, bytes.byteLength);
  return new Map(infos.map((info) => [info.name, decodeTensor(bytes.subarray(info.offset, info.offset + info.byteLength), info)]));
}

describe('baton grpo-step', () => {
  let dir: string;
  let ref: RefModel;
  let adapter: LoraAdapter;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-cli-grpo-'));
    const tiny = await writeTinyModel(join(dir, 'model'), {
      architecture: 'qwen3',
      dtype: 'BF16',
      seed: 12,
      hidden: 8,
      heads: 2,
      kvHeads: 1,
      layers: 2,
      intermediate: 12,
      vocab: 48,
      tokenizer: 'none',
    });
    adapter = await writeRandomAdapter(join(dir, 'lora'), {
      model: tiny.config,
      r: 2,
      alpha: 4,
      targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'],
      seed: 3,
    });
    await writeFile(join(dir, 'batch.json'), batchFile(BATCH));
    const opened = await openModel(filesFromDir(join(dir, 'model')));
    ref = await loadRefModel(opened.tensors, opened.config);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('takes the reference step, writes the updated adapter and the gradient, and logprobs --lora OUT scores with it', async () => {
    const io = recordingIo(dir);
    const args = ['--model', 'model', '--lora', 'lora', '--batch', 'batch.json', '--out', 'out', '--loss-type', 'dr_grpo', '--max-completion-length', '8'];
    const flags = [
      '--beta',
      '0.04',
      '--epsilon',
      '0.2',
      '--epsilon-high',
      '0.28',
      '--temperature',
      '0.7',
      '--lr',
      String(LR),
      '--weight-decay',
      '0.01',
      '--max-grad-norm',
      '0.5',
    ];
    expect(await main(['grpo-step', ...args, ...flags], io), io.err).toBe(0);
    const printed = JSON.parse(io.out);

    const refAdapter = float64Copy(adapter);
    const trainer = new CapturingRef(ref, { wrt: 'lora', lora: refAdapter, optimizer: { lr: LR, weightDecay: 0.01, maxGradNorm: 0.5 } });
    const expected = await grpoStep(trainer, BATCH, {
      grpo: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.28, lossType: 'dr_grpo', maxCompletionLength: 8 },
      scaleRewards: 'group',
      temperature: 0.7,
      microBatchSize: 2,
    });
    expect(Object.keys(printed)).toEqual(['loss', 'gradNorm', 'clipRatio', 'kl', 'entropy', 'tokens', 'lr']);
    expect(printed.clipRatio).toEqual(expected.clipRatio);
    expect(expected.clipRatio.regionMean).toBeGreaterThan(0);
    expect({ tokens: printed.tokens, lr: printed.lr }).toEqual({ tokens: expected.tokens, lr: LR });
    for (const key of ['loss', 'gradNorm', 'kl', 'entropy'] as const) {
      expect(Math.abs(printed[key] - expected[key]!), key).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(expected[key]!));
    }
    expect(expected.gradNorm).toBeGreaterThan(0.5); // clipping was on

    const updated = await readPeftAdapter(filesFromDir(join(dir, 'out')));
    expect(updated.config).toMatchObject({ r: 2, alpha: 4 });
    const grads = await readTensors(join(dir, 'out', 'grads.safetensors'));
    expect(grads.size).toBe(2 * adapter.weights.size);
    for (const [path, m] of refAdapter.weights) {
      checkTensor(`${path} A`, updated.weights.get(path)!.A, m.A, { abs: 1e-3 * LR, rel: 1e-6 });
      checkTensor(`${path} B`, updated.weights.get(path)!.B, m.B, { abs: 1e-3 * LR, rel: 1e-6 });
      for (const part of ['A', 'B'] as const) {
        checkTensor(`${path} d${part}`, grads.get(`base_model.model.${path}.lora_${part}.weight`)!, trainer.captured.get(`${path}.lora_${part}`)!, {
          abs: 1e-5,
          rel: 1e-3,
        });
      }
    }

    const ids = [3, 9, 14, 5, 7, 2];
    await writeFile(join(dir, 'ids.json'), JSON.stringify(ids));
    const scored = recordingIo(dir);
    expect(await main(['logprobs', '--model', 'model', '--lora', 'out', '--ids', 'ids.json', '--temperature', '0.7'], scored), scored.err).toBe(0);
    checkTensor('logprobs with the updated adapter', JSON.parse(scored.out).logprobs, refLogprobs(ref, ids, { temperature: 0.7, lora: refAdapter }), {
      abs: 1e-4,
      rel: 1e-3,
    });
  });

  it('says plainly what is missing or wrong', async () => {
    await mkdir(join(dir, 'full'), { recursive: true });
    await writeFile(join(dir, 'full', 'x'), '');
    const base = ['--model', 'model', '--batch', 'batch.json'];
    const cases: [string[], RegExp][] = [
      [[...base, '--out', 'o1'], /--lora IN is required/],
      [[...base, '--lora', 'lora', '--out', 'o2', '--loss-type', 'dapo'], /--loss-type must be one of bnpo, grpo, dr_grpo/],
      [[...base, '--lora', 'lora', '--out', 'full'], /--out full is not empty/],
      [['--model', 'model', '--lora', 'lora', '--out', 'o3'], /--batch FILE is required/],
    ];
    for (const [args, message] of cases) {
      const io = recordingIo(dir);
      expect(await main(['grpo-step', ...args], io)).toBe(2);
      expect(io.err).toMatch(message);
    }
  });
});
