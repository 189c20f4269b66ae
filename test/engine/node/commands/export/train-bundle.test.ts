/**
 * `baton export train-bundle`: the bundle's script, run with plain `node` in a directory outside the
 * repository where only the `webgpu` package is installed (linked, as `npm i webgpu` would put it),
 * trains one step of a tiny Conductor from the bundle's config, tasks and pool, and writes its metrics;
 * and a recorded pool's bundle carries its records, which the script replays at the recorded dollars.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecordedSource } from '../../../../../src/core/bench/index.ts';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import { normalizeQuestion } from '../../../../../src/core/providers/replay/index.ts';
import { NODE_DATA_FILES } from '../../../../../src/node/inputs/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { TINY_CONDUCTOR_INIT } from '../../../../support/tiny-model.ts';

const TASKS = [
  { question: '2+3?', answer: '5', kind: 'number' },
  { question: 'Sky?\nA. red\nB. blue', answer: 'B', kind: 'mcq', choices: ['red', 'blue'] },
];
const SETTINGS = {
  model: 'model',
  pool: 'experts',
  tasks: 'tasks.jsonl',
  steps: 1,
  questions: 1,
  group: 2,
  'max-completion-tokens': 56,
  'max-subtask-chars': 6,
  constrain: true,
  prompt: 'compact',
  'max-steps': 2,
  seed: 2,
  out: 'ignored',
};

describe('baton export train-bundle', () => {
  let dir: string;
  const run = async (...argv: string[]) => {
    const io = recordingIo(dir);
    const code = await main(argv, io);
    return { code, io };
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-bundle-'));
    const made = await run(...TINY_CONDUCTOR_INIT);
    expect(made.code).toBe(0);
    await writeFile(join(dir, 'tasks.jsonl'), TASKS.map((t) => `${JSON.stringify(t)}\n`).join(''));
    await writeFile(join(dir, 'train.json'), JSON.stringify(SETTINGS));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** baton.mjs run in the bundle with plain node, beside what `npm i webgpu` leaves there and nothing else. */
  async function runBundled(bundle: string, ...argv: string[]): Promise<{ code: number | null; err: string }> {
    await mkdir(join(bundle, 'node_modules'), { recursive: true });
    await symlink(resolve('node_modules', 'webgpu'), join(bundle, 'node_modules', 'webgpu'), 'dir').catch(() => {});
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, ['baton.mjs', ...argv], { cwd: bundle, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH } });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
      child.on('error', fail);
      child.on('exit', (code) => done({ code, err }));
    });
  }

  it('packs the run, and its script trains a step with plain node and the webgpu package alone', async () => {
    const exported = await run('export', 'train-bundle', '--config', 'train.json', '--out', 'bundle', '--with-model');
    expect(exported.code, exported.io.err).toBe(0);
    const bundle = join(dir, 'bundle');
    expect((await readdir(bundle)).sort()).toEqual(['README.md', 'baton.mjs', 'config.json', 'model', 'pool.json', 'tasks.jsonl']);
    const webgpu = JSON.parse(await readFile(join('node_modules', 'webgpu', 'package.json'), 'utf8')).version;
    expect(await readFile(join(bundle, 'README.md'), 'utf8')).toContain(`npm i webgpu@${webgpu} && node baton.mjs train --config config.json --out run`);
    expect(JSON.parse(await readFile(join(bundle, 'config.json'), 'utf8'))).toEqual({ ...SETTINGS, pool: 'pool.json', out: undefined });
    expect(JSON.parse(await readFile(join(bundle, 'pool.json'), 'utf8')).workers.map((w: { id: string }) => w.id)).toHaveLength(4);

    const trained = await runBundled(bundle, 'train', '--config', 'config.json', '--out', 'run');
    expect(trained.code, trained.err).toBe(0);
    expect(trained.err).toMatch(/^step 1\/1 .*reward/);
    const metrics = (await readFile(join(bundle, 'run', 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(metrics).toEqual([expect.objectContaining({ step: 1, questions: 1, completions: 2, formatRate: 1 })]);
    expect((await readdir(join(bundle, 'run', 'adapter'))).sort()).toEqual(['adapter_config.json', 'adapter_model.safetensors', 'conductor.json']);
  }, 240_000);

  it("carries a recorded pool's records of its questions, which its script replays at the recorded dollars", async () => {
    await writeFile(join(dir, 'recorded.json'), JSON.stringify({ ...SETTINGS, pool: 'routerbench-4', tasks: 'routerbench' }));
    const exported = await run('export', 'train-bundle', '--config', 'recorded.json', '--out', 'recorded');
    expect(exported.code, exported.io.err).toBe(0);
    const bundle = join(dir, 'recorded');
    expect((await readdir(join(bundle, 'data', 'routerbench'))).sort()).toEqual(['arc-challenge.jsonl', 'mbpp.jsonl', 'models.json', 'winogrande.jsonl']);
    expect(JSON.parse(await readFile(join(bundle, 'config.json'), 'utf8'))).not.toHaveProperty('replay');

    // The bundled CLI reads RouterBench's task set and records from the bundle's data/, as a run there would;
    // and the bundle's held-out.jsonl as a file, whose multiple-choice questions already list their options, so
    // they are read as they are and replay finds every one.
    const evaluate = async (dataset: string, out: string) => {
      const args = ['--dataset', dataset, '--pool', 'pool.json', '--method', 'single:gpt-4-1106-preview', '--limit', '5', '--out', out];
      const evaluated = await runBundled(bundle, 'eval', ...args);
      expect(evaluated.code, evaluated.err).toBe(0);
      return (await readFile(join(bundle, out, 'episodes.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Episode);
    };
    const episodes = await evaluate('routerbench', 'ev');
    expect(episodes).toHaveLength(5);
    const fileEpisodes = await evaluate('held-out.jsonl', 'ev-file');
    expect(fileEpisodes.filter((e) => e.task.kind === 'mcq').length).toBeGreaterThan(0);
    // The repository's records of those questions: the bundle's must give the same tokens and dollars.
    const { sets } = await readRecordedSource(NODE_DATA_FILES, 'routerbench');
    const byQuestion = new Map(sets.flatMap((s) => s.questions).map((q) => [normalizeQuestion(q.question), q.records['gpt-4-1106-preview']]));
    for (const e of [...episodes, ...fileEpisodes]) {
      const recorded = byQuestion.get(normalizeQuestion(e.task.question))!;
      expect(recorded.usd).toBeGreaterThan(0);
      expect(e.steps.map((s) => [s.costUsd, s.usage.output])).toEqual([[recorded.usd, recorded.outputTokens]]);
    }
  }, 240_000);

  it('refuses a config without the settings a run needs', async () => {
    await writeFile(join(dir, 'partial.json'), JSON.stringify({ model: 'model', pool: 'experts' }));
    const partial = await run('export', 'train-bundle', '--config', 'partial.json', '--out', 'nothing');
    expect(partial.code).toBe(2);
    expect(partial.io.err).toBe('baton export: --config partial.json: "tasks" is required, as baton train needs it\n');
  });
});
