/**
 * `baton export train-bundle`: the bundle's script, run with plain `node` in a directory outside the
 * repository where only the `webgpu` package is installed (linked, as `npm i webgpu` would put it),
 * trains one step of a tiny Conductor from the bundle's config, tasks and pool, and writes its metrics.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('packs the run, and its script trains a step with plain node and the webgpu package alone', async () => {
    const exported = await run('export', 'train-bundle', '--config', 'train.json', '--out', 'bundle', '--with-model');
    expect(exported.code, exported.io.err).toBe(0);
    const bundle = join(dir, 'bundle');
    expect((await readdir(bundle)).sort()).toEqual(['README.md', 'baton.mjs', 'config.json', 'model', 'pool.json', 'tasks.jsonl']);
    const webgpu = JSON.parse(await readFile(join('node_modules', 'webgpu', 'package.json'), 'utf8')).version;
    expect(await readFile(join(bundle, 'README.md'), 'utf8')).toContain(`npm i webgpu@${webgpu} && node baton.mjs train --config config.json --out run`);
    expect(JSON.parse(await readFile(join(bundle, 'config.json'), 'utf8'))).toEqual({ ...SETTINGS, pool: 'pool.json', out: undefined });
    expect(JSON.parse(await readFile(join(bundle, 'pool.json'), 'utf8')).workers.map((w: { id: string }) => w.id)).toHaveLength(4);

    // What `npm i webgpu` leaves beside the script, and nothing else.
    await mkdir(join(bundle, 'node_modules'));
    await symlink(resolve('node_modules', 'webgpu'), join(bundle, 'node_modules', 'webgpu'), 'dir');
    const trained = await new Promise<{ code: number | null; err: string }>((done, fail) => {
      const child = spawn(process.execPath, ['baton.mjs', 'train', '--config', 'config.json', '--out', 'run'], {
        cwd: bundle,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { PATH: process.env.PATH },
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
      child.on('error', fail);
      child.on('exit', (code) => done({ code, err }));
    });
    expect(trained.code, trained.err).toBe(0);
    expect(trained.err).toMatch(/^step 1\/1 .*reward/);
    const metrics = (await readFile(join(bundle, 'run', 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(metrics).toEqual([expect.objectContaining({ step: 1, questions: 1, completions: 2, formatRate: 1 })]);
    expect((await readdir(join(bundle, 'run', 'adapter'))).sort()).toEqual(['adapter_config.json', 'adapter_model.safetensors', 'conductor.json']);
  }, 240_000);

  it('refuses a config without the settings a run needs', async () => {
    await writeFile(join(dir, 'partial.json'), JSON.stringify({ model: 'model', pool: 'experts' }));
    const partial = await run('export', 'train-bundle', '--config', 'partial.json', '--out', 'nothing');
    expect(partial.code).toBe(2);
    expect(partial.io.err).toBe('baton export: --config partial.json: "tasks" is required, as baton train needs it\n');
  });
});
