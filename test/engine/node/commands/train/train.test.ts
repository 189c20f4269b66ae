/**
 * `baton train` end to end in-process on SwiftShader: a Conductor made by `baton init-model` (16 wide,
 * 2 layers) trained with GRPO on the experts pool over a tiny task set, format-constrained so every
 * plan parses; then the same run, killed (SIGINT to a `baton` process) after its first step and resumed,
 * must give the same metrics and the same adapter bytes. With --recursion 1 each plan's episode gets a
 * second round written by the policy, and the first round trains on the mixed reward.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrpoStepMetrics } from '../../../../../src/core/rl/index.ts';
import { filesFromDir } from '../../../../../src/engine/model/files-node.ts';
import { openModel, readPeftAdapter } from '../../../../../src/engine/model/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../../support/tiny-model.ts';

const TASKS = [
  { question: '2+3?', answer: '5', kind: 'number' },
  { question: '4+4?', answer: '8', kind: 'number' },
  { question: 'Sky?\nA. red\nB. blue', answer: 'B', kind: 'mcq', choices: ['red', 'blue'] },
  { question: 'Grass?\nA. green\nB. pink', answer: 'A', kind: 'mcq', choices: ['green', 'pink'] },
];
const HELD_OUT = [{ question: '1+6?', answer: '7', kind: 'number' }];
const jsonl = (rows: object[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

describe('baton train', () => {
  let dir: string;
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    const code = await main(argv, io);
    return { code, io };
  };
  const trainArgs = (out: string, steps: number) => [
    'train',
    '--model',
    'model',
    '--weights',
    'f32',
    '--pool',
    'experts',
    '--tasks',
    'tasks.jsonl',
    '--held-out',
    'held-out.jsonl',
    '--steps',
    String(steps),
    '--questions',
    '2',
    '--group',
    '4',
    '--max-completion-tokens',
    '110',
    '--constrain',
    '--prompt',
    'compact',
    '--max-steps',
    '2',
    '--r',
    '4',
    '--targets',
    'all',
    '--lr',
    '0.01',
    '--eval-every',
    '2',
    '--checkpoint-every',
    '1',
    '--seed',
    '3',
    '--out',
    out,
  ];
  const train = (out: string, steps: number) => run(...trainArgs(out, steps));
  /** `baton train` as its own process, sent SIGINT once it reports step `after`; resolves with its exit code. */
  const trainKilled = (out: string, steps: number, after: number) =>
    new Promise<{ code: number | null; err: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'baton.js'), ...trainArgs(out, steps)], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (err.includes(`step ${after}/${steps}`) && !child.killed) child.kill('SIGINT');
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

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-train-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code).toBe(0);
    await writeFile(join(dir, 'tasks.jsonl'), jsonl(TASKS));
    await writeFile(join(dir, 'held-out.jsonl'), jsonl(HELD_OUT));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('trains, writes metrics, episodes, checkpoints and a PEFT adapter, and resumes a killed run exactly', async () => {
    const straight = await train('straight', 2);
    expect(straight.code, straight.io.err).toBe(0);
    expect(straight.io.err).toMatch(/^step 1\/2 .*reward .*left\nstep 2\/2 .*held-out /);
    const whole = await metrics('straight');
    expect(whole.map((m) => m.step)).toEqual([1, 2]);
    for (const m of whole) {
      expect(m).toMatchObject({ questions: 2, completions: 8, excluded: 0, formatRate: 1 });
      expect(m.workerChoices.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(8);
      expect(Number.isFinite(m.gradNorm)).toBe(true);
    }
    expect(whole.map((m) => m.heldOutAccuracy === undefined)).toEqual([true, false]);
    expect(whole.some((m) => m.gradNorm! > 0)).toBe(true);
    const episodes = (await readFile(join(dir, 'straight', 'episodes.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(episodes).toHaveLength(2 * 8 + 1);
    expect(episodes[0]).toMatchObject({ group: 'grpo-3/step-1/q-0', tags: ['step:1', 'train'] });
    expect(await readdir(join(dir, 'straight', 'checkpoints'))).toEqual(['latest', 'step-000001', 'step-000002']);
    const { config } = await openModel(filesFromDir(join(dir, 'model')));
    const adapter = await readPeftAdapter(filesFromDir(join(dir, 'straight', 'adapter')), config);
    expect(adapter.config.r).toBe(4);
    expect([...adapter.weights.values()].some((w) => w.B.some((b) => b !== 0))).toBe(true);
    // Beside it, the format it was trained under, for whoever runs it next (baton eval, baton run).
    expect(JSON.parse(await readFile(join(dir, 'straight', 'adapter', 'conductor.json'), 'utf8'))).toEqual({
      prompt: 'compact',
      constrain: true,
      maxSteps: 2,
      jumpForward: true,
    });

    const killed = await trainKilled('resumed', 2, 1);
    expect(killed.code, killed.err).toBe(130);
    expect(killed.err).not.toMatch(/step 2\/2/);
    expect(await readdir(join(dir, 'resumed', 'checkpoints'))).toEqual(['latest', 'step-000001']);
    const rest = await run('train', '--resume', 'resumed');
    expect(rest.code, rest.io.err).toBe(0);
    expect(timeless(await metrics('resumed'))).toEqual(timeless(whole));
    const groups = async (out: string) =>
      (await readFile(join(dir, out, 'episodes.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).group);
    expect(await groups('resumed')).toEqual(await groups('straight'));
    const bytes = (out: string) => readFile(join(dir, out, 'adapter', 'adapter_model.safetensors'));
    expect((await bytes('resumed')).equals(await bytes('straight'))).toBe(true);
  }, 240_000);

  it('with --recursion 1, runs a second round written by the policy and trains the first on (1 - d) r0 + d r1', async () => {
    const recursed = await run(
      ...trainArgs('recursion', 1),
      '--questions',
      '1',
      '--group',
      '2',
      '--eval-every',
      '0',
      '--subtasks',
      'fixed',
      '--max-steps',
      '1',
      '--max-completion-tokens',
      '48',
      '--recursion',
      '1',
      '--recursion-mix',
      '0.2',
    );
    expect(recursed.code, recursed.io.err).toBe(0);
    const episodes = (await readFile(join(dir, 'recursion', 'episodes.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(episodes).toHaveLength(2);
    for (const e of episodes) {
      expect(e.rounds).toHaveLength(1);
      const [second] = e.rounds;
      // Sampled by the policy under the recursion round's constraint: it parses, as a new workflow or the three empty lists.
      expect(second.parseError).toBeUndefined();
      expect(second.kept === true || second.workflow !== undefined).toBe(true);
      expect(second.completion.tokenIds.length).toBeGreaterThan(0);
      expect(second.completion.logprobs).toHaveLength(second.completion.tokenIds.length);
      const { firstRoundValue, finalValue } = e.reward.details;
      expect(e.reward.value).toBeCloseTo(0.8 * firstRoundValue + 0.2 * finalValue, 12);
    }
    const [m] = await metrics('recursion');
    expect(m).toMatchObject({ completions: 2, excluded: 0 });
    expect(m.rewardMean).toBeCloseTo((episodes[0].reward.value + episodes[1].reward.value) / 2, 12);
  }, 120_000);
});
