/**
 * `baton run` end to end against the fake provider server: every network provider reached through its
 * baseUrl with its key from the environment, as a user would run it. Checks what a user sees and what is
 * kept: the final answer, each step's tokens and dollars, a 429 waited out, a refused key in one line, and
 * no key anywhere in the episode directory or an export.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/index.ts';
import { renderWorkflow, type Workflow } from '../../../../../src/core/workflow/index.ts';
import { main } from '../../../../../src/node/main.ts';
import type { CliIo } from '../../../../../src/node/cli/io.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';

const KEYS = {
  OPENAI_API_KEY: 'sk-proj-e2eOPENAI-4d1f0a77',
  ANTHROPIC_API_KEY: 'sk-ant-api03-e2eANTHROPIC-77be',
  GEMINI_API_KEY: 'AIzaSy-e2eGEMINI-a9c3d1f2',
  LOCAL_LLM_KEY: 'local-e2eCOMPAT-5511c0',
};
const WRONG_KEY = 'sk-wrong-e2eREFUSED-0b7e';

let server: FakeProviderServer;
let dir: string;
let out: string;
let err: string;

beforeAll(async () => {
  server = await startFakeProviderServer({ acceptKeys: Object.values(KEYS) });
  // Loading the SDKs is a cold start on shared cores, not part of what any test below checks.
  await Promise.all([import('ai'), import('@ai-sdk/openai'), import('@ai-sdk/anthropic'), import('@ai-sdk/google'), import('@ai-sdk/openai-compatible')]);
}, 30_000);
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = mkdtempSync(join(tmpdir(), 'baton-providers-'));
  out = '';
  err = '';
});

function pool(): WorkerSpec[] {
  return [
    // No price: billed from the shipped table by its model name.
    { id: 'gpt', provider: 'openai', model: 'gpt-4o-mini', baseUrl: `${server.url}/v1` },
    { id: 'claude', provider: 'anthropic', model: 'claude-e2e', baseUrl: `${server.url}/v1`, price: { input: 3, output: 15, cachedInput: 0.3 } },
    { id: 'gemini', provider: 'google', model: 'gemini-2.5-flash', baseUrl: `${server.url}/v1beta` },
    { id: 'local', provider: 'openai-compatible', model: 'qwen-local', baseUrl: `${server.url}/v1`, keyEnv: 'LOCAL_LLM_KEY', price: { input: 0.5, output: 1 } },
  ];
}

function ioWith(env: Record<string, string>): CliIo {
  return { stdout: (t) => void (out += t), stderr: (t) => void (err += t), readStdin: async () => '', env, cwd: dir };
}

async function baton(env: Record<string, string>, workers: WorkerSpec[], ...args: string[]): Promise<number> {
  writeFileSync(join(dir, 'pool.json'), JSON.stringify({ workers }));
  return main(['run', '--task', 'What is 6 x 7?', '--pool', 'pool.json', '--episodes-dir', 'eps', ...args], ioWith(env));
}

function fixed(workflow: Workflow): string[] {
  writeFileSync(join(dir, 'completion.txt'), renderWorkflow(workflow));
  return ['--conductor', 'fixed:completion.txt'];
}

async function exported(): Promise<{ text: string; episodes: Episode[] }> {
  const before = out;
  out = '';
  expect(await main(['episodes', 'export', '--dir', 'eps'], ioWith({}))).toBe(0);
  const text = out;
  out = before;
  return {
    text,
    episodes: text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  };
}

/** Every file the episode directory holds, as one text. */
function episodeDirText(): string {
  const eps = join(dir, 'eps');
  return readdirSync(eps)
    .map((name) => readFileSync(join(eps, name), 'utf8'))
    .join('\n');
}

const oneStep = (worker: number): Workflow => ({ steps: [{ worker, subtask: 'Answer it.', access: [] }] });

describe('baton run over network providers', () => {
  it('gives the final answer, the usage and the dollars of each provider, and keeps no key', async () => {
    server.scriptModel('gpt-4o-mini', { text: 'It is 42.', usage: { input: 1200, output: 300, cached: 1000, reasoning: 40 } });
    server.scriptModel('claude-e2e', { text: 'Checked: 42.', usage: { input: 900, output: 50, cached: 600 } });
    server.scriptModel('gemini-2.5-flash', { text: 'Agreed, 42.', usage: { input: 500, output: 120, cached: 200, reasoning: 70 } });
    server.scriptModel('qwen-local', { text: 'The answer is 42.', usage: { input: 80, output: 20 } });
    const workflow: Workflow = {
      steps: [
        { worker: 0, subtask: 'Solve it.', access: [] },
        { worker: 1, subtask: 'Check it.', access: [0] },
        { worker: 2, subtask: 'Check again.', access: [1] },
        { worker: 3, subtask: 'Give the final answer.', access: 'all' },
      ],
    };
    const code = await baton(KEYS, pool(), ...fixed(workflow), '--answer', '42', '--access', 'positional');
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain('final answer:\nThe answer is 42.\n');

    const { text, episodes } = await exported();
    expect(episodes).toHaveLength(1);
    const [episode] = episodes;
    expect(episode.final).toBe('The answer is 42.');
    expect(episode.reward?.correct).toBe(true);
    expect(episode.steps.map((s) => s.output)).toEqual(['It is 42.', 'Checked: 42.', 'Agreed, 42.', 'The answer is 42.']);
    expect(episode.steps.map((s) => s.usage)).toEqual([
      { input: 1200, output: 300, cached: 1000, reasoning: 40 },
      // Anthropic reports cache reads apart from input_tokens; Baton's input includes them.
      { input: 900, output: 50, cached: 600 },
      // Gemini's candidatesTokenCount leaves out the thoughts; Baton's output includes them.
      { input: 500, output: 120, cached: 200, reasoning: 70 },
      { input: 80, output: 20, cached: 0, reasoning: 0 },
    ]);
    const expectedUsd = [
      (200 * 0.15 + 1000 * 0.075 + 300 * 0.6) / 1e6, // gpt-4o-mini from the table
      (300 * 3 + 600 * 0.3 + 50 * 15) / 1e6, // the pool file's own price
      (300 * 0.3 + 200 * 0.03 + 120 * 2.5) / 1e6, // gemini-2.5-flash from the table
      (80 * 0.5 + 20 * 1) / 1e6,
    ];
    episode.steps.forEach((s, i) => expect(s.costUsd).toBeCloseTo(expectedUsd[i], 12));
    expect(episode.totals.costUsd).toBeCloseTo(
      expectedUsd.reduce((a, b) => a + b),
      12,
    );
    expect(episode.pool[0].price).toEqual({ input: 0.15, output: 0.6, cachedInput: 0.075 });
    expect(episode.steps.map((s) => s.attempts)).toEqual([1, 1, 1, 1]);

    // Each provider got its own key in its own header, and streamed.
    const byModel = (model: string) => server.requests.find((r) => r.model === model)!;
    expect(byModel('gpt-4o-mini').headers.authorization).toBe(`Bearer ${KEYS.OPENAI_API_KEY}`);
    expect(byModel('gpt-4o-mini').body.stream_options).toEqual({ include_usage: true });
    expect(byModel('claude-e2e').headers['x-api-key']).toBe(KEYS.ANTHROPIC_API_KEY);
    expect(byModel('gemini-2.5-flash').headers['x-goog-api-key']).toBe(KEYS.GEMINI_API_KEY);
    expect(byModel('gemini-2.5-flash').query).toMatchObject({ alt: 'sse' });
    expect(byModel('qwen-local').headers.authorization).toBe(`Bearer ${KEYS.LOCAL_LLM_KEY}`);
    expect(byModel('qwen-local').body.stream_options).toEqual({ include_usage: true });
    expect(server.requests.every((r) => r.stream)).toBe(true);

    for (const key of Object.values(KEYS)) {
      expect(episodeDirText()).not.toContain(key);
      expect(text).not.toContain(key);
      expect(out).not.toContain(key);
    }
  });

  it('lets a network worker play the Conductor', async () => {
    const workflow: Workflow = {
      steps: [
        { worker: 1, subtask: 'Solve it.', access: [] },
        { worker: 0, subtask: 'Check step 0 and answer.', access: [0] },
      ],
    };
    server.scriptModel('claude-e2e', { text: `Two steps.\n${renderWorkflow(workflow)}` }, { text: '42' });
    server.scriptModel('gpt-4o-mini', { text: 'Confirmed: 42' });
    const workers = pool().slice(0, 2);
    const code = await baton(KEYS, workers, '--conductor', 'worker:claude', '--access', 'positional', '--json');
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const episode: Episode = JSON.parse(out);
    expect(episode.conductor).toMatchObject({ runtime: 'worker', model: 'claude-e2e' });
    expect(episode.workflow).toEqual(workflow);
    expect(episode.final).toBe('Confirmed: 42');
    const calls = server.requests.filter((r) => r.method === 'POST').map((r) => r.model);
    expect(calls).toEqual(['claude-e2e', 'claude-e2e', 'gpt-4o-mini']);
    // The Conductor's request is Baton's prompt, continued from its prefill.
    expect(server.requests[0].body.messages.at(-1).role).toBe('assistant');
  });

  it('ends a refused key of the Conductor worker in one line naming its variable', async () => {
    const code = await baton({ ...KEYS, ANTHROPIC_API_KEY: WRONG_KEY }, pool().slice(0, 2), '--conductor', 'worker:claude');
    expect(code).toBe(1);
    expect(err).toBe(
      'baton run: The Conductor failed: Anthropic rejected the key ANTHROPIC_API_KEY (401). Check it at https://console.anthropic.com/settings/keys.\n',
    );
    // The failed run is still kept, marked as an infrastructure failure with the Conductor's error.
    const { episodes } = await exported();
    expect(episodes).toHaveLength(1);
    expect(episodes[0]).toMatchObject({ status: 'infra-error', error: { code: 'provider/auth' }, steps: [] });
    expect(out).not.toContain(WRONG_KEY);
  });

  it('fails a step whose worker sends an empty 200 stream: its cost unknown, not $0, and the run not graded', async () => {
    server.script({ chunks: [], usage: { input: 0, output: 0 } });
    expect(await baton(KEYS, pool(), ...fixed(oneStep(0)), '--answer', '42')).toBe(1);
    expect(err).toBe(
      "baton run: step 0 (gpt) failed: OpenAI model 'gpt-4o-mini' answered with no text. Try again; if it keeps happening, check the model name and the baseUrl.\n",
    );
    const { episodes } = await exported();
    expect(episodes[0]).toMatchObject({ status: 'infra-error', reward: { value: 0, infraError: true }, totals: { costUsd: null } });
    expect(episodes[0].steps[0]).toMatchObject({ output: '', costUsd: null, attempts: 1, error: { code: 'provider/empty-answer' } });
  });

  it('asks again a stream cut part-way, as nothing of it was shown', { timeout: 20_000 }, async () => {
    server.script({ text: 'It is 4', cutAfterChunks: 2 }, { text: 'It is 42.' });
    expect(await baton(KEYS, pool(), ...fixed(oneStep(0)), '--answer', '42')).toBe(0);
    expect(server.requests.map((r) => r.outcome)).toEqual(['cut', 'completed']);
    const { episodes } = await exported();
    expect(episodes[0]).toMatchObject({ status: 'ok', final: 'It is 42.', reward: { correct: true } });
    expect(episodes[0].steps[0]).toMatchObject({ output: 'It is 42.', attempts: 2 });
  });

  it('waits out a 429 for as long as retry-after asks', { timeout: 20_000 }, async () => {
    server.script({ status: 429, headers: { 'retry-after': '2' } }, { text: '42' });
    expect(await baton(KEYS, pool(), ...fixed(oneStep(0)))).toBe(0);
    const [first, second] = server.requests;
    expect(second.at - first.at).toBeGreaterThanOrEqual(1_950);
    const { episodes } = await exported();
    expect(episodes[0].steps[0]).toMatchObject({ output: '42', attempts: 2 });
  });

  const refusals: [string, string, number][] = [
    ['openai', 'OPENAI_API_KEY', 0],
    ['anthropic', 'ANTHROPIC_API_KEY', 1],
    ['google', 'GEMINI_API_KEY', 2],
    ['openai-compatible', 'LOCAL_LLM_KEY', 3],
  ];
  it.each(refusals)('ends a refused %s key with exit 1 and one line naming %s', async (_provider, keyName, worker) => {
    const env = { ...KEYS, [keyName]: WRONG_KEY };
    expect(await baton(env, pool(), ...fixed(oneStep(worker)))).toBe(1);
    const lines = err.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(keyName);
    expect(lines[0]).toMatch(/^baton run: step 0 \(\w+\) failed: .*(rejected|refused) the key/);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    const { text } = await exported();
    for (const secret of [WRONG_KEY, ...Object.values(KEYS)]) {
      expect(err + out + text + episodeDirText()).not.toContain(secret);
    }
  });

  it('ends a missing key with one line saying which variable to set, before any request', async () => {
    const { OPENAI_API_KEY: _, ...env } = KEYS;
    expect(await baton(env, pool(), ...fixed(oneStep(0)))).toBe(1);
    const lines = err.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('set OPENAI_API_KEY');
    expect(server.requests).toHaveLength(0);
  });
});

describe('baton run over a network provider (as a process)', () => {
  const run = promisify(execFile);
  const bin = resolve(process.cwd(), 'bin/baton.js');
  const args = ['run', '--task', 'What is 6 x 7?', '--pool', 'pool.json', '--episodes-dir', 'eps', '--conductor', 'fixed:completion.txt'];
  const env = (key: string) => ({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: key });

  // Two cold starts of tsx on shared cores: give them room.
  it('writes nothing to stderr on success, and exactly one line on a refused key', { timeout: 60_000 }, async () => {
    writeFileSync(join(dir, 'pool.json'), JSON.stringify({ workers: [pool()[1]] }));
    fixed(oneStep(0));
    server.script({ text: 'Forty-two.' });
    const ok = await run('node', [bin, ...args], { cwd: dir, env: env(KEYS.ANTHROPIC_API_KEY) });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('final answer:\nForty-two.\n');

    const refused = await run('node', [bin, ...args], { cwd: dir, env: env(WRONG_KEY) }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 1 });
    const { stdout, stderr } = refused as { stdout: string; stderr: string };
    expect(stderr).toMatch(/^baton run: step 0 \(claude\) failed: Anthropic rejected the key ANTHROPIC_API_KEY \(401\)\.[^\n]*\n$/);
    expect(stdout + stderr + episodeDirText()).not.toContain(WRONG_KEY);
  });

  it('--kind code: runs the final answer against the tests in the sandbox and says why it was wrong', { timeout: 60_000 }, async () => {
    const gold = JSON.stringify({ tests: [{ input: '6 7\n', output: '42\n' }] });
    server.scriptModel('qwen-local', { text: 'Here:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```' });
    const code = await baton(KEYS, pool(), ...fixed(oneStep(3)), '--kind', 'code', '--answer', gold);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain('reward 0.5 (wrong: test 1 of 1: expected "42", printed "13")');
    const [episode] = (await exported()).episodes;
    expect(episode.reward).toMatchObject({ correct: false, details: { failure: 'wrong-output', test: 1 } });
    expect(await baton(KEYS, pool(), ...fixed(oneStep(3)), '--kind', 'code', '--answer', '{"tests": []}')).toBe(1);
    expect(err).toMatch(/"tests" must be a non-empty list/);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
