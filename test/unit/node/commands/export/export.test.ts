/** `baton export trl|verl` in-process: the files, their columns, and Parquet rows read back equal to the JSONL. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_POOL } from '../../../../../src/core/providers/index.ts';
import { askPrompt } from '../../../../../src/core/rl/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';

const TASKS = [
  { question: 'What is 17 * 23?', answer: '391', kind: 'number' },
  { question: 'Which is a prime?\nA. 4\nB. 6\nC. 7\nD. 9', answer: 'C', kind: 'mcq', choices: ['4', '6', '7', '9'], dataset: 'mine', itemId: 'p1' },
  { question: 'Simplify $\\frac{2}{4}$.', answer: '\\frac{1}{2}', kind: 'math' },
];

const readJsonl = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const readParquet = async (file: string) => parquetReadObjects({ file: await asyncBufferFromFile(file) });

describe('baton export', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-export-'));
    await writeFile(join(dir, 'tasks.jsonl'), TASKS.map((t) => JSON.stringify(t)).join('\n'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const run = async (...args: string[]) => {
    const io = recordingIo(dir);
    const code = await main(['export', ...args], io);
    return { code, io };
  };

  it("trl: the prompt as chat messages (Baton's Conductor prompt for the pool), answer and kind, as JSONL and the same rows as Parquet", async () => {
    const { code, io } = await run('trl', '--tasks', 'tasks.jsonl', '--pool', 'demo', '--out', 'trl', '--reward-url', 'http://10.0.0.5:9000/v1/reward');
    expect(code, io.err).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ engine: 'trl', train: 3, heldOut: 0, mode: 'lora' });
    const out = join(dir, 'trl');
    for (const f of [
      'train.jsonl',
      'train.parquet',
      'baton_reward.py',
      'train_trl.py',
      'grpo_config.json',
      'launch.sh',
      'pool.json',
      'README.md',
      'baton-export.json',
    ]) {
      expect((await stat(join(out, f))).size, f).toBeGreaterThan(0);
    }
    const rows = await readJsonl(join(out, 'train.jsonl'));
    expect(rows).toHaveLength(3);
    const expected = askPrompt({ question: TASKS[1].question, answer: 'C', kind: 'mcq' }, DEMO_POOL, { maxSteps: 5, access: 'binary' });
    expect(rows[1]).toEqual({ prompt: expected, question: TASKS[1].question, answer: 'C', kind: 'mcq', choices: ['4', '6', '7', '9'] });
    expect(rows[1].prompt.at(-1).role).toBe('assistant');
    expect(rows[0].choices).toEqual([]);

    expect(await readParquet(join(out, 'train.parquet'))).toEqual(rows);
    const schema = parquetSchema(await parquetMetadataAsync(await asyncBufferFromFile(join(out, 'train.parquet'))));
    expect(schema.children.map((c) => c.element.name)).toEqual(['prompt', 'question', 'answer', 'kind', 'choices']);
    expect(schema.children[0].element.converted_type).toBe('LIST');

    const config = JSON.parse(await readFile(join(out, 'grpo_config.json'), 'utf8'));
    expect(config).toMatchObject({
      num_generations: 64,
      beta: 0,
      epsilon: 0.2,
      temperature: 1,
      top_p: 1,
      max_completion_length: 1024,
      max_steps: 200,
      lr_scheduler_type: 'cosine',
      warmup_steps: 0.03,
      loss_type: 'dapo',
      num_iterations: 1,
    });
    expect(config).not.toHaveProperty('warmup_ratio'); // transformers 5 refuses it
    expect(config).not.toHaveProperty('max_prompt_length'); // TRL 1.13 refuses it
    expect(config.per_device_train_batch_size * 2 * config.gradient_accumulation_steps).toBe(4 * 64);
    expect(config.lora).toMatchObject({ r: 16, lora_alpha: 32 });
    expect(await readFile(join(out, 'baton_reward.py'), 'utf8')).toContain('DEFAULT_URL = "http://10.0.0.5:9000/v1/reward"');
    execFileSync('bash', ['-n', join(out, 'launch.sh')]);
    expect(await readFile(join(out, 'launch.sh'), 'utf8')).toContain('train_trl.py "$@"');
    expect(await readFile(join(out, 'README.md'), 'utf8')).toContain('pip install trl==1.13.0');
    expect(JSON.parse(await readFile(join(out, 'pool.json'), 'utf8')).workers.map((w: { id: string }) => w.id)).toEqual(DEMO_POOL.map((w) => w.id));
  });

  it('verl: data_source, prompt without the prefill, ability, reward_model {style rule, ground_truth}, extra_info; experts brings a test split', async () => {
    const { code, io } = await run(
      'verl',
      '--tasks',
      'experts',
      '--pool',
      'experts',
      '--out',
      'verl',
      '--full',
      '--model',
      'Qwen/Qwen2.5-3B-Instruct',
      '--seed',
      '3',
    );
    expect(code, io.err).toBe(0);
    const out = join(dir, 'verl');
    const train = await readJsonl(join(out, 'train.jsonl'));
    const test = await readJsonl(join(out, 'test.jsonl'));
    expect([train.length, test.length]).toEqual([240, 60]);
    const row = train.find((r) => r.ability === 'mcq');
    expect(Object.keys(row)).toEqual(['data_source', 'prompt', 'ability', 'reward_model', 'extra_info']);
    expect(row.prompt.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(row.reward_model).toEqual({ style: 'rule', ground_truth: expect.stringMatching(/^[ABCD]$/) });
    expect(row.extra_info).toMatchObject({ split: 'train', question: expect.any(String), kind: 'mcq', choices: expect.any(Array) });
    expect(row.extra_info.choices).toHaveLength(4);
    expect(test[0].extra_info.split).toBe('test');
    expect(await readParquet(join(out, 'train.parquet'))).toEqual(train);
    expect(await readParquet(join(out, 'test.parquet'))).toEqual(test);

    const launch = await readFile(join(out, 'launch.sh'), 'utf8');
    execFileSync('bash', ['-n', join(out, 'launch.sh')]);
    for (const line of [
      'actor_rollout_ref.rollout.n=64',
      'actor_rollout_ref.actor.optim.lr=0.000001',
      'actor_rollout_ref.actor.clip_ratio=0.2',
      'actor_rollout_ref.actor.use_kl_loss=False',
      'trainer.total_training_steps=200',
      'data.val_files=test.parquet',
      'custom_reward_function.name=compute_score_batch',
      'MODEL="${MODEL:-Qwen/Qwen2.5-3B-Instruct}"',
    ]) {
      expect(launch).toContain(line);
    }
    expect(launch).not.toContain('lora_rank');
    expect(await readFile(join(out, 'README.md'), 'utf8')).toMatch(/baton serve-reward --pool pool.json --max-steps 5/);
  });

  it('says plainly what is wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['tf', '--tasks', 'gsm8k', '--pool', 'demo', '--out', 'x'], /baton export trl\|verl/],
      [['trl', '--pool', 'demo', '--out', 'x'], /--tasks is required/],
      [['trl', '--tasks', 'gsm8k', '--pool', 'demo', '--out', 'x', '--lora', '--full'], /exclude each other/],
      [['trl', '--tasks', 'nope.jsonl', '--pool', 'demo', '--out', 'x'], /--tasks: cannot read/],
      [['trl', '--tasks', 'tasks.jsonl', '--pool', 'demo', '--out', 'trl'], /not empty/],
    ];
    for (const [args, message] of cases) {
      const { code, io } = await run(...args);
      expect(code, args.join(' ')).not.toBe(0);
      expect(io.err).toMatch(message);
    }
  });
});
