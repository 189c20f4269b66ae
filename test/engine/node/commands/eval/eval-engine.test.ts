/**
 * `baton eval --method conductor:engine:<dir>,lora=<dir>` on Dawn: a tiny random model with a LoRA
 * adapter plays the Conductor. Its plans are noise, so the report says they are malformed; what is
 * checked is the wiring: the adapter, the token cap and each run's own seed in the episodes, and
 * `baton run` taking the same choice. Kept to three short generations: prefill on SwiftShader is slow.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../../../../src/core/bench/index.ts';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { writeRandomAdapter, writeTinyModel } from '../../../../support/tiny-model.ts';

const POOL = [{ id: 'w', provider: 'simulated', model: 'w', price: { input: 1, output: 1 }, simulated: { skill: { default: 0.5 }, latencyMs: 0 } }];

describe('baton eval with an engine Conductor', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-eval-engine-'));
    const tiny = await writeTinyModel(join(dir, 'model'), { architecture: 'qwen2', dtype: 'F32', seed: 3, layers: 1, hidden: 16, heads: 2, kvHeads: 1 });
    await writeRandomAdapter(join(dir, 'adapter'), { model: tiny.config, r: 2, alpha: 4, targetModules: ['q_proj', 'v_proj'], seed: 5 });
    await writeFile(join(dir, 'pool.json'), JSON.stringify(POOL));
    await writeFile(join(dir, 'set.jsonl'), ['a'].map((id) => JSON.stringify({ question: `2 + 2 (${id})?`, answer: '4', id })).join('\n'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const evaluate = async (out: string) => {
    const io = recordingIo(dir);
    const method = 'conductor:engine:model,lora=adapter,max-tokens=3';
    const code = await main(
      ['eval', '--dataset', 'set.jsonl', '--kind', 'number', '--pool', 'pool.json', '--method', method, '--repeats', '2', '--seed', '7', '--out', out],
      io,
    );
    expect(code, io.err).toBe(0);
    const episodes = (await readFile(join(dir, out, 'episodes.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Episode);
    return { episodes, report: JSON.parse(await readFile(join(dir, out, 'report.json'), 'utf8')) as EvalReport };
  };

  it('samples each run from its own seed with the adapter, and reports the malformed plans', async () => {
    const first = await evaluate('one');
    expect(first.episodes).toHaveLength(2);
    for (const e of first.episodes) {
      expect(e.conductor).toMatchObject({ runtime: 'engine', model: 'model', adapter: 'adapter', sampling: { temperature: 1, maxNewTokens: 3 } });
      expect(e.completion.tokenIds!.length).toBeLessThanOrEqual(3);
    }
    expect(new Set(first.episodes.map((e) => e.conductor.sampling!.seed)).size).toBe(2);
    const row = first.report.methods[0];
    expect(row).toMatchObject({ runs: 2, malformedRate: 1, callsPerQuestion: 0, graded: 2, accuracy: 0 });
  }, 300_000);

  it('is the same choice for baton run --conductor', async () => {
    const io = recordingIo(dir);
    const code = await main(
      [
        'run',
        '--task',
        '2 + 2?',
        '--answer',
        '4',
        '--pool',
        'pool.json',
        '--conductor',
        'engine:model,max-tokens=2',
        '--lora',
        'adapter',
        '--no-save',
        '--json',
      ],
      io,
    );
    expect(code).toBe(1); // the noise does not parse
    const episode = JSON.parse(io.out) as Episode;
    expect(episode).toMatchObject({ status: 'format-error', conductor: { runtime: 'engine', adapter: 'adapter' } });
    expect(io.err).toMatch(/^baton run: the Conductor's completion did not parse/);
  }, 300_000);

  it('runs a trained Conductor in the format its conductor.json names: the demo Conductor routes sums and multiple choice apart', async () => {
    const demo = join(process.cwd(), 'public', 'demo-conductor');
    const tasks = [
      ...[
        [23, 41],
        [57, 18],
        [36, 62],
      ].map(([a, b], i) => ({ question: `What is ${a} + ${b}?`, answer: String(a + b), kind: 'number', id: `sum${i}` })),
      ...[
        ['12', '85', '40', '7'],
        ['66', '3', '91', '28'],
        ['9', '44', '17', '70'],
      ].map((c, i) => ({
        question: `Which is largest? ${c.map((v, k) => `${'ABCD'[k]}. ${v}`).join(' ')}`,
        answer: 'ABCD'[c.indexOf(String(Math.max(...c.map(Number))))],
        kind: 'mcq',
        choices: c,
        id: `mcq${i}`,
      })),
    ];
    await writeFile(join(dir, 'kinds.jsonl'), tasks.map((t) => JSON.stringify(t)).join('\n'));
    const io = recordingIo(dir);
    const code = await main(['eval', '--dataset', 'kinds.jsonl', '--pool', 'demo', '--method', `conductor:engine:${demo}`, '--seed', '3', '--out', 'demo'], io);
    expect(code, io.err).toBe(0);
    const episodes = (await readFile(join(dir, 'demo', 'episodes.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Episode);
    // The compact prompt it was trained on, and the one-step lists with the fixed subtask.
    for (const e of episodes) {
      expect(e.prompt.map((m) => m.content).join('')).toMatch(/^Plan at most 1 steps over models 0-3/);
      expect(e.workflow?.steps).toHaveLength(1);
      expect(e.workflow?.steps[0].subtask).toBe('Solve the question.');
    }
    const first = (kind: string) => episodes.filter((e) => e.task.kind === kind).map((e) => e.steps[0].workerId);
    expect(first('number').filter((w) => w === 'sim-euler').length).toBeGreaterThanOrEqual(2);
    expect(first('mcq').filter((w) => w === 'sim-sage').length).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
