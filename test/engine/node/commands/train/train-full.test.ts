/**
 * `baton train --full` on SwiftShader: every weight of a Conductor made by `baton init-model` trained with
 * GRPO, checkpoints holding the weights (safetensors) and AdamW's state, a run killed after its first step
 * and resumed giving the same metrics and the same weights, and OUT/model/ a model directory that
 * `baton generate` loads. What full fine-tuning cannot do is refused before anything loads.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrpoStepMetrics } from '../../../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../../../src/engine/model/files-node.ts';
import { openTensorSource } from '../../../../../src/engine/model/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../../support/tiny-model.ts';

const TASKS = [
  { question: '2+3?', answer: '5', kind: 'number' },
  { question: '4+4?', answer: '8', kind: 'number' },
  { question: 'Sky?\nA. red\nB. blue', answer: 'B', kind: 'mcq', choices: ['red', 'blue'] },
];
const jsonl = (rows: object[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

describe('baton train --full', () => {
  let dir: string;
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    const code = await main(argv, io);
    return { code, io };
  };
  const trainArgs = (out: string, ...extra: string[]) => [
    'train',
    '--full',
    '--model',
    'model',
    '--pool',
    'experts',
    '--tasks',
    'tasks.jsonl',
    '--steps',
    '2',
    '--questions',
    '2',
    '--group',
    '3',
    '--max-completion-tokens',
    '56',
    '--max-subtask-chars',
    '6',
    '--constrain',
    '--prompt',
    'compact',
    '--max-steps',
    '2',
    '--lr',
    '0.01',
    '--checkpoint-every',
    '1',
    '--seed',
    '5',
    '--out',
    out,
    ...extra,
  ];
  /** `baton train` as its own process, sent SIGINT once it reports step 1; resolves with its exit code. */
  const trainKilled = (out: string) =>
    new Promise<{ code: number | null; err: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'baton.js'), ...trainArgs(out)], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (err.includes('step 1/2') && !child.killed) child.kill('SIGINT');
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, err }));
    });
  const metrics = async (out: string): Promise<GrpoStepMetrics[]> =>
    (await readFile(join(dir, out, 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const timeless = (ms: GrpoStepMetrics[]) => ms.map(({ timeMs: _t, trainTokensPerSecond: _s, ...m }) => m);
  const tensors = async (modelDir: string) => {
    const source = await openTensorSource(filesFromDir(join(dir, modelDir)));
    return new Map(await Promise.all([...source.tensors.keys()].map(async (name) => [name, await source.read(name)] as const)));
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-train-full-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code).toBe(0);
    await writeFile(join(dir, 'tasks.jsonl'), jsonl(TASKS));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a base that is not f32, a KL term and a LoRA adapter, in one line each', async () => {
    const int4 = await run(...trainArgs('no-int4', '--weights', 'int4'));
    expect(int4.code).toBe(2);
    expect(int4.io.err).toMatch(/^baton train: --full trains f32 master weights, but --weights is int4/);
    const beta = await run(...trainArgs('no-beta', '--beta', '0.04'));
    expect(beta.code).toBe(2);
    expect(beta.io.err).toMatch(/^baton train: --full has no KL reference .* --beta must be 0, got 0.04\n$/);
    const lora = await run(...trainArgs('no-lora', '--lora', 'model'));
    expect(lora.code).toBe(2);
    expect(lora.io.err).toMatch(/--full trains every weight of --model; --lora starts a LoRA run/);
  });

  it('trains every weight into a model directory, and resumes a killed run exactly', async () => {
    const straight = await run(...trainArgs('straight'));
    expect(straight.code, straight.io.err).toBe(0);
    const whole = await metrics('straight');
    expect(whole.map((m) => m.step)).toEqual([1, 2]);
    expect(whole.every((m) => m.completions === 6 && m.formatRate === 1)).toBe(true);
    // Step 1 has a gradient; step 2 is taken with AdamW's moments from step 1, so the resume below must restore them as well as the weights.
    expect(whole[0].gradNorm).toBeGreaterThan(0);
    expect(await readdir(join(dir, 'straight', 'checkpoints', 'step-000001'))).toEqual(['checkpoint.json', 'model.safetensors', 'optimizer.bin']);

    // OUT/model: the base's files, its config now float32, every tensor under its own name and shape, changed by training.
    expect((await readdir(join(dir, 'straight', 'model'))).sort()).toEqual([
      'conductor.json',
      'config.json',
      'model.safetensors',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    expect(await readFile(join(dir, 'straight', 'model', 'tokenizer.json'), 'utf8')).toBe(await readFile(join(dir, 'model', 'tokenizer.json'), 'utf8'));
    expect(JSON.parse(await readFile(join(dir, 'straight', 'model', 'config.json'), 'utf8'))).toMatchObject({ torch_dtype: 'float32', hidden_size: 16 });
    const [base, trained] = [await tensors('model'), await tensors('straight/model')];
    expect([...trained.keys()].sort()).toEqual([...base.keys()].sort());
    const changed = [...trained].filter(([name, t]) => t.some((x, i) => x !== base.get(name)![i]));
    expect(changed.length).toBeGreaterThan(base.size / 2);
    expect([...trained.values()].every((t) => t.every(Number.isFinite))).toBe(true);

    const generated = await run('generate', '--model', 'straight/model', '--prompt', 'hi', '--max-new-tokens', '3', '--json');
    expect(generated.code, generated.io.err).toBe(0);
    expect(JSON.parse(generated.io.out)).toMatchObject({ index: 0, tokens: expect.any(Array) });

    const killed = await trainKilled('resumed');
    expect(killed.code, killed.err).toBe(130);
    expect(await readdir(join(dir, 'resumed', 'checkpoints'))).toEqual(['latest', 'step-000001']);
    const rest = await run('train', '--resume', 'resumed');
    expect(rest.code, rest.io.err).toBe(0);
    expect(timeless(await metrics('resumed'))).toEqual(timeless(whole));
    const bytes = (out: string) => readFile(join(dir, out, 'model', 'model.safetensors'));
    expect((await bytes('resumed')).equals(await bytes('straight'))).toBe(true);
  }, 300_000);
});
