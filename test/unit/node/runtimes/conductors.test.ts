/**
 * The Conductor choices `baton run --conductor` and `baton eval --method conductor:` share, against a
 * fake OpenAI-compatible server: a remote endpoint and a pool worker writing the plan, their calls and
 * tokens in the episodes and the report; one clear message for a bad choice.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../../../src/core/bench/index.ts';
import type { Episode } from '../../../../src/core/episodes/index.ts';
import { main } from '../../../../src/node/main.ts';
import { recordingIo } from '../../../support/cli-io.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

const PLAN =
  'I will ask one model and have the other check.\nmodel_id = [0, 1]\nsubtasks = ["Solve it; answer in <answer></answer> tags.", "Check it; answer in <answer></answer> tags."]\naccess_list = [[], "all"]';
let server: FakeProviderServer;
let dir: string;

beforeAll(async () => {
  server = await startFakeProviderServer({ fallback: { text: 'It is <answer>42</answer>', usage: { input: 40, output: 8 } } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = mkdtempSync(join(tmpdir(), 'baton-conductors-'));
  const workers = ['alpha', 'beta'].map((m) => ({
    id: m,
    provider: 'openai-compatible',
    model: m,
    baseUrl: `${server.url}/v1`,
    price: { input: 1, output: 2 },
  }));
  writeFileSync(join(dir, 'pool.json'), JSON.stringify({ workers }));
});

const planner = (n: number) => server.scriptModel('planner', ...Array.from({ length: n }, () => ({ text: PLAN, usage: { input: 900, output: 60 } })));

describe('--conductor remote:<model>@<url>', () => {
  it('has the endpoint write the plan with the Conductor prompt, and runs it', async () => {
    planner(1);
    const io = recordingIo(dir);
    const code = await main(
      ['run', '--task', 'What is 6 x 7?', '--answer', '42', '--pool', 'pool.json', '--conductor', `remote:planner@${server.url}/v1`, '--no-save', '--json'],
      io,
    );
    expect(code, io.err).toBe(0);
    const episode = JSON.parse(io.out) as Episode;
    expect(episode.conductor).toMatchObject({ runtime: 'worker', model: 'planner', sampling: { temperature: 1 } });
    expect(episode.workflow!.steps.map((s) => s.worker)).toEqual([0, 1]);
    expect(episode.reward).toMatchObject({ correct: true });
    const plannerCall = server.requests.find((r) => r.model === 'planner')!;
    expect(JSON.stringify(plannerCall.body.messages)).toContain('What is 6 x 7?');
    expect(plannerCall.body.messages.at(-1).role).toBe('user'); // openai-compatible honours no prefill: the prefill turn is left out
    expect(server.requests.map((r) => r.model)).toEqual(['planner', 'alpha', 'beta']);
  });

  it('says what to write for a malformed choice', async () => {
    const io = recordingIo(dir);
    expect(await main(['run', '--task', 'x', '--pool', 'pool.json', '--conductor', 'remote:planner'], io)).toBe(2);
    expect(io.err).toBe(
      'baton run: --conductor: Conductor "remote:planner": write remote:<model>@<base URL>, e.g. remote:my-conductor@http://localhost:8000/v1.\n',
    );
  });

  it('refuses web-llm, which runs in a browser tab, and a worker not in the pool, before anything runs', async () => {
    for (const [choice, message] of [
      ['webllm:Qwen2.5-1.5B-Instruct-q4f32_1-MLC', 'web-llm runs in a browser tab: evaluate Qwen2.5-1.5B-Instruct-q4f32_1-MLC on the Evaluate page.'],
      ['worker:zeta', 'no worker "zeta" in the pool (ids: alpha, beta).'],
    ]) {
      const io = recordingIo(dir);
      expect(await main(['run', '--task', 'x', '--pool', 'pool.json', '--conductor', choice], io)).toBe(2);
      expect(io.err).toBe(`baton run: --conductor ${choice}: ${message}\n`);
    }
    expect(server.requests).toEqual([]);
  });

  it('names a plan file it cannot read', async () => {
    const io = recordingIo(dir);
    expect(await main(['run', '--task', 'x', '--pool', 'pool.json', '--conductor', 'fixed:nope.txt'], io)).toBe(1);
    expect(io.err).toBe(`baton run: --conductor fixed:nope.txt: cannot read ${join(dir, 'nope.txt')} (ENOENT).\n`);
  });
});

describe('baton eval --method conductor:<choice>', () => {
  it("counts the Conductor's own call and tokens beside the workers'", async () => {
    planner(3);
    writeFileSync(join(dir, 'set.jsonl'), ['a', 'b', 'c'].map((id) => JSON.stringify({ question: `Question ${id}: 6 x 7?`, answer: '42', id })).join('\n'));
    const io = recordingIo(dir);
    const code = await main(
      [
        'eval',
        '--dataset',
        'set.jsonl',
        '--kind',
        'number',
        '--pool',
        'pool.json',
        '--method',
        `conductor:remote:planner@${server.url}/v1`,
        '--method',
        'single:beta',
        '--concurrency',
        '1',
        '--out',
        'out',
      ],
      io,
    );
    expect(code, io.err).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as EvalReport;
    const [conductor, single] = report.methods;
    expect(conductor).toMatchObject({
      method: `conductor:remote:planner@${server.url}/v1`,
      runs: 3,
      accuracy: 1,
      callsPerQuestion: 3,
      tokensPerQuestion: { conductor: 960, workers: 96 },
    });
    expect(single).toMatchObject({ runs: 3, callsPerQuestion: 1, tokensPerQuestion: { conductor: 0, workers: 48 } });
    // The endpoint has no price, so those runs' dollars are unknown, and said to be, rather than counted as free.
    expect(conductor.costUsd.unknownRuns).toBe(3);
    expect(single.costUsd).toMatchObject({ unknownRuns: 0, total: (3 * (40 * 1 + 8 * 2)) / 1e6 });
    expect(server.requests.filter((r) => r.model === 'planner')).toHaveLength(3);
  });

  it('names the method whose pool worker does not exist', async () => {
    writeFileSync(join(dir, 'set.jsonl'), JSON.stringify({ question: 'q', answer: '1', id: 'a' }));
    const io = recordingIo(dir);
    expect(await main(['eval', '--dataset', 'set.jsonl', '--pool', 'pool.json', '--method', 'conductor:worker:zeta', '--out', 'out'], io)).toBe(1);
    expect(io.err).toBe('baton eval: Method "conductor:worker:zeta": no worker "zeta" in the pool (ids: alpha, beta).\n');
  });
});
