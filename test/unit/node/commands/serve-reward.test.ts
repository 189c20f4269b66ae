/**
 * `baton serve-reward` as a user runs it: its own process on 127.0.0.1 port 0, and the Python reward
 * module `baton export` writes, run with plain python3 against it (TRL's reward_fn with string and chat
 * completions, verl's compute_score and compute_score_batch; right, wrong, malformed, a worker down,
 * a bad token, a bad kind); then SIGTERM with a request in flight, which is answered before it exits.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { closedPort } from '../../../support/closed-port.ts';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../src/node/main.ts';
import { serveRewardCommand } from '../../../../src/node/commands/serve-reward.ts';
import { EpisodeDirStore } from '../../../../src/node/stores/episode-dir.ts';
import { recordingIo } from '../../../support/cli-io.ts';

const HAS_PYTHON = spawnSync('python3', ['--version']).status === 0;
const TOKEN = 'test-token-1';

const sim = (id: string, skill: number, latencyMs = 0) => ({
  id,
  provider: 'simulated',
  model: id,
  price: { input: 1, output: 2 },
  simulated: { skill: { default: skill }, confirmRight: 1, fixWrong: 0, latencyMs, outputTokens: 20 },
});

/** Runs the exported module's functions the way TRL and verl call them, and prints what they return. */
const DRIVER = `
import json, os, sys, types
sys.path.insert(0, sys.argv[1])
import baton_reward as br

def plan(w):
    return 'Route it.\\nmodel_id = [%d]\\nsubtasks = ["Solve it; answer in <answer></answer> tags."]\\naccess_list = [[]]' % w

q, q2 = "What is 17 * 23?", "What is 6 * 7?"
info = lambda i, question: {"split": "train", "index": i, "question": question, "kind": "number", "choices": [], "item_id": str(i)}
out = {}
out["trl"] = br.reward_fn(
    prompts=[[{"role": "user", "content": q}]] * 5,
    completions=[plan(0), [{"role": "assistant", "content": plan(1)}], "no lists at all", plan(2), plan(2)],
    question=[q, q, q, q, q2], answer=["391", "391", "391", "391", "42"], kind=["number"] * 5, choices=[[]] * 5,
    trainer_state=types.SimpleNamespace(global_step=5),
)
out["verl_right"] = br.compute_score("baton/tasks", plan(0), "391", info(0, q))
out["verl_wrong"] = br.compute_score("baton/tasks", plan(1), "391", info(0, q))
out["verl_down"] = br.compute_score("baton/tasks", plan(2), "391", info(0, q))
out["verl_batch"] = br.compute_score_batch(
    data_sources=["baton/tasks"] * 4, solution_strs=[plan(0), plan(2), plan(1), "prose"],
    ground_truths=["391", "391", "42", "42"], extra_infos=[info(0, q), info(0, q), info(1, q2), info(1, q2)],
)
try:
    br.compute_score("baton/tasks", plan(0), "391", {"question": q, "kind": "poem"})
except br.RewardServerError as e:
    out["bad_kind"] = str(e)
os.environ["BATON_REWARD_TOKEN"] = "wrong"
try:
    br.compute_score("baton/tasks", plan(0), "391", info(0, q))
except br.RewardServerError as e:
    out["bad_token"] = str(e)
print(json.dumps(out))
`;

describe('baton serve-reward (its own process)', () => {
  let dir: string;
  let server: ChildProcess;
  let url: string;
  let stderr = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-serve-reward-'));
    const down = {
      id: 'down',
      provider: 'openai-compatible',
      model: 'm',
      baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
      price: { input: 1, output: 1 },
    };
    await writeFile(join(dir, 'pool.json'), JSON.stringify({ workers: [sim('right', 1), sim('wrong', 0), down, sim('slow', 1, 1500)] }));
    server = spawn(
      process.execPath,
      [resolve('bin/baton.js'), 'serve-reward', '--pool', 'pool.json', '--port', '0', '--token', TOKEN, '--attempts', '1', '--episodes', 'eps'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stderr!.on('data', (c) => (stderr += c));
    const line = await new Promise<string>((ok, fail) => {
      createInterface({ input: server.stdout! }).once('line', ok);
      server.once('exit', (code) => fail(new Error(`serve-reward exited ${code}: ${stderr}`)));
    });
    url = JSON.parse(line).url;
  }, 60_000);

  afterAll(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('prints where it listens as one JSON line, with the port it was given', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
  });

  it.skipIf(!HAS_PYTHON)(
    `the exported Python reward module, run with plain python3, gets the paper's rewards${HAS_PYTHON ? '' : ' (skipped: no python3 on this machine)'}`,
    async () => {
      const io = recordingIo(dir);
      expect(await main(['export', 'trl', '--tasks', 'gsm8k', '--pool', 'pool.json', '--out', 'export', '--reward-url', `${url}/v1/reward`], io), io.err).toBe(
        0,
      );
      await writeFile(join(dir, 'driver.py'), DRIVER);
      const python = spawnSync('python3', ['driver.py', join(dir, 'export')], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, BATON_REWARD_TOKEN: TOKEN, BATON_REWARD_RETRIES: '1' },
        timeout: 60_000,
      });
      expect(python.status, python.stderr).toBe(0);
      const out = JSON.parse(python.stdout);
      // Right, wrong, malformed; a worker down gets its question's mean of the others (advantage 0); alone in its question, the call's mean.
      expect(out.trl).toEqual([1, 0.5, 0, 0.5, 0.5]);
      expect(out.verl_right).toEqual({ score: 1, infra_error: 0 });
      expect(out.verl_wrong).toEqual({ score: 0.5, infra_error: 0 });
      expect(out.verl_down).toEqual({ score: 0, infra_error: 1 });
      expect(out.verl_batch).toEqual([
        { score: 1, infra_error: 0 },
        { score: 1, infra_error: 1 },
        { score: 0.5, infra_error: 0 },
        { score: 0, infra_error: 0 },
      ]);
      expect(out.bad_kind).toMatch(/answered 400: items\[0\]\.kind must be one of/);
      expect(out.bad_token).toMatch(/answered 401: a bearer token is required/);

      // TRL's step reached the episodes.
      const store = await EpisodeDirStore.open(join(dir, 'eps'));
      const tagged = (await store.list({ limit: 100 })).episodes.filter((e) => e.tags.includes('step:5'));
      expect(tagged).toHaveLength(5);
      expect(tagged.filter((e) => e.reward?.infraError).map((e) => e.status)).toEqual(['infra-error', 'infra-error']);
    },
  );

  it('on SIGTERM answers the request in flight, then exits 0 saying so', async () => {
    const item = {
      completion: 'model_id = [3]\nsubtasks = ["Solve it; answer in <answer></answer> tags."]\naccess_list = [[]]',
      question: 'What is 17 * 23?',
      answer: '391',
      kind: 'number',
    };
    const inFlight = fetch(`${url}/v1/reward`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ items: [item] }) });
    await new Promise((r) => setTimeout(r, 400));
    const exited = new Promise<number | null>((ok) => server.once('exit', ok));
    server.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect((await res.json()).rewards).toEqual([1]);
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/SIGTERM: taking no new requests; finishing 1 in flight/);
    expect(stderr).toMatch(/stopped after \d+ requests/);
  });
});

describe('baton serve-reward (signals, in-process)', () => {
  it('a second signal stops the runs in flight at once: their request is answered 503 with the reason, the command exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-serve-reward-signal-'));
    try {
      await writeFile(join(dir, 'pool.json'), JSON.stringify([sim('slow', 1, 20_000)]));
      const io = recordingIo(dir);
      const command = serveRewardCommand(['--pool', 'pool.json', '--port', '0', '--episodes', 'eps'], io, ['SIGUSR2']);
      while (!io.out.includes('\n')) await new Promise((r) => setTimeout(r, 20));
      const item = { completion: 'model_id = [0]\nsubtasks = ["Solve it."]\naccess_list = [[]]', question: 'What is 17 * 23?', answer: '391', kind: 'number' };
      const inFlight = fetch(JSON.parse(io.out).reward, { method: 'POST', body: JSON.stringify({ items: [item] }) });
      await new Promise((r) => setTimeout(r, 200));
      process.emit('SIGUSR2', 'SIGUSR2');
      await new Promise((r) => setTimeout(r, 100));
      process.emit('SIGUSR2', 'SIGUSR2');
      const res = await inFlight;
      expect(res.status).toBe(503);
      expect((await res.json()).error).toMatch(/shut down before these 1 completions were scored/);
      expect(await command).toBe(0);
      expect(io.err).toMatch(/SIGUSR2 again: stopping the runs in flight/);
      expect(io.err).toMatch(/1 cut short by the shutdown were answered 503/);
      expect(process.listenerCount('SIGUSR2')).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('baton serve-reward (flags)', () => {
  it('refuses to listen beyond loopback without a token, and names bad flags', async () => {
    const cases: [string[], RegExp][] = [
      [['--pool', 'demo', '--host', '0.0.0.0'], /refusing to listen on 0\.0\.0\.0 without a token/],
      [['--host', '127.0.0.1'], /--pool is required/],
      [['--pool', 'demo', '--concurrency', '0'], /--concurrency must be at least 1/],
      [['--pool', 'demo', '--port', '70000'], /--port must be 0-65535/],
    ];
    for (const [args, message] of cases) {
      const io = recordingIo(tmpdir());
      expect(await main(['serve-reward', ...args], io)).toBe(2);
      expect(io.err).toMatch(message);
    }
  });
});
