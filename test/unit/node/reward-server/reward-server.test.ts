/**
 * The reward server over real HTTP on 127.0.0.1 (port 0): the paper's rewards for right, wrong and
 * malformed completions, a worker down flagged as infrastructure, the token, 400/413, the shared
 * concurrency limit (counted at a fake OpenAI-compatible server), the budget, and a shutdown with
 * requests in flight.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { closedPort } from '../../../support/closed-port.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerSpec } from '../../../../src/core/providers/index.ts';
import { buildPool } from '../../../../src/node/inputs/worker-pool.ts';
import { EpisodeDirStore } from '../../../../src/node/stores/episode-dir.ts';
import { startRewardServer, type RewardServer, type RewardServerOptions } from '../../../../src/node/reward-server/reward-server.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../support/fake-provider-server.ts';

const sim = (id: string, skill: number, extra: Partial<WorkerSpec> = {}): WorkerSpec => ({
  id,
  provider: 'simulated',
  model: id,
  price: { input: 1, output: 2 },
  simulated: { skill: { default: skill }, confirmRight: 1, fixWrong: 0, latencyMs: 0, outputTokens: 20 },
  ...extra,
});

/** A Conductor completion: one step per worker id, each seeing nothing but the question. */
const plan = (...workers: number[]) =>
  `Let me route this.\nmodel_id = [${workers.join(', ')}]\nsubtasks = [${workers.map(() => '"Solve it; answer in <answer></answer> tags."').join(', ')}]\naccess_list = [${workers.map(() => '[]').join(', ')}]`;

const QUESTION = { question: 'What is 17 * 23?', answer: '391', kind: 'number' };

describe('reward server', () => {
  let dir: string;
  let fake: FakeProviderServer;
  const servers: RewardServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-reward-server-'));
    fake = await startFakeProviderServer({ fallback: { text: 'So <answer>391</answer>', firstByteDelayMs: 150 } });
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    fake.reset();
  });
  afterAll(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(specs: WorkerSpec[], options: Partial<RewardServerOptions> = {}, episodes = join(dir, `eps-${servers.length}-${Date.now()}`)) {
    const pool = await buildPool(specs, {}, undefined, undefined, { retry: { attempts: 1 } });
    const store = await EpisodeDirStore.open(episodes);
    const server = await startRewardServer({
      pool,
      host: '127.0.0.1',
      port: 0,
      concurrency: 8,
      maxSteps: 5,
      maxBodyBytes: 100_000,
      store,
      drainMs: 10_000,
      ...options,
    });
    servers.push(server);
    return { server, store, episodes };
  }

  const post = (server: RewardServer, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/v1/reward`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('gives the paper rewards: 1 right, 0.5 wrong, 0 malformed, in order; each run kept as an episode tagged with the step', async () => {
    const { server, episodes } = await start([sim('right', 1), sim('wrong', 0)]);
    const items = [plan(0), plan(1), 'no lists here, just prose', plan(1, 0)].map((completion) => ({ completion, ...QUESTION }));
    const res = await post(server, { step: 7, items });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.rewards).toEqual([1, 0.5, 0, 1]);
    expect(body.details.map((d: any) => [d.correct, d.format, d.infraError ?? false])).toEqual([
      [true, true, false],
      [false, true, false],
      [false, false, false],
      [true, true, false],
    ]);
    expect(body.details[2].parseError).toMatch(/model_id/);
    expect(body.details[0].final).toContain('391');
    expect(body.details[0].costUsd).toBeGreaterThan(0);

    const store = await EpisodeDirStore.open(episodes);
    const kept = await Promise.all(body.details.map((d: any) => store.get(d.episodeId)));
    expect(kept.map((e) => e?.reward?.value)).toEqual([1, 0.5, 0, 1]);
    for (const e of kept) expect(e?.tags).toEqual(['reward-server', 'step:7']);
    // Items asking one question are one GRPO group.
    expect(new Set(kept.map((e) => e?.group)).size).toBe(1);
  });

  it('flags a worker that is down as an infrastructure error (reward null), never as wrong', async () => {
    const down: WorkerSpec = {
      id: 'down',
      provider: 'openai-compatible',
      model: 'm',
      baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
      price: { input: 1, output: 1 },
    };
    const { server } = await start([sim('right', 1), down]);
    const body = await (await post(server, { items: [plan(1), plan(0)].map((completion) => ({ completion, ...QUESTION })) })).json();
    expect(body.rewards).toEqual([null, 1]);
    expect(body.details[0]).toMatchObject({ infraError: true, correct: false, error: { code: 'provider/network' } });
    expect(server.health()).toMatchObject({ served: { requests: 1, items: 2, infraErrors: 1 } });
  });

  it('requires the bearer token when one is set (GET /health needs none)', async () => {
    const { server } = await start([sim('right', 1)], { token: 's3cret' });
    const body = { items: [{ completion: plan(0), ...QUESTION }] };
    expect((await post(server, body)).status).toBe(401);
    expect((await post(server, body, { authorization: 'Bearer wrong' })).status).toBe(401);
    const ok = await post(server, body, { authorization: 'Bearer s3cret' });
    expect(ok.status).toBe(200);
    expect((await ok.json()).rewards).toEqual([1]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('answers 400 with the reason for bad JSON, missing fields and unknown kinds; 413 past the body limit', async () => {
    const { server } = await start([sim('right', 1)], { maxBodyBytes: 2_000 });
    const cases: [unknown, RegExp][] = [
      ['{"items": [', /not valid JSON/],
      [[1, 2], /JSON object/],
      [{ items: [] }, /"items" is empty/],
      [{ items: [{ completion: 'x', question: 'q', answer: '1' }] }, /items\[0\]\.kind must be a string \(it is missing\)/],
      [
        { items: [{ completion: 'x', question: 'q', answer: '1', kind: 'poem' }] },
        /items\[0\]\.kind must be one of math, gsm8k, number, mcq, exact, literal, got "poem"/,
      ],
      [{ items: [{ completion: 'x', question: 'q', answer: '1', kind: 'code' }] }, /kind must be one of/],
      [{ items: [{ question: 'q', answer: '1', kind: 'number' }] }, /items\[0\]\.completion must be a string/],
      [{ items: [{ completion: 'x', question: 'q', answer: '1', kind: 'number' }], step: -1 }, /"step" must be a whole number/],
      [{ items: [{ completion: 'x', question: 'q', answer: '1', kind: 'number' }], extra: 1 }, /unknown field "extra"/],
    ];
    for (const [body, reason] of cases) {
      const res = await post(server, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error).toMatch(reason);
    }
    const big = await post(server, { items: [{ completion: 'x'.repeat(5_000), ...QUESTION }] });
    expect(big.status).toBe(413);
    expect((await big.json()).error).toMatch(/2000-byte limit/);
    expect((await fetch(`${server.url}/v1/reward`)).status).toBe(405);
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
    // None of it ran a worker or counted as served.
    expect(server.health()).toMatchObject({ served: { requests: 0, items: 0 } });
  });

  it('holds worker calls across requests to --concurrency, queueing the rest', async () => {
    const worker: WorkerSpec = { id: 'slow', provider: 'openai-compatible', model: 'slower-model', baseUrl: `${fake.url}/v1`, price: { input: 1, output: 1 } };
    fake.scriptModel('slower-model', ...Array.from({ length: 6 }, () => ({ text: 'So <answer>391</answer>', firstByteDelayMs: 400 })));
    const { server } = await start([worker], { concurrency: 2 });
    const requests = [0, 1, 2].map(() => post(server, { items: [0, 1].map(() => ({ completion: plan(0), ...QUESTION })) }));
    // All six calls are asked for within the first call's 400 ms: two run, four wait.
    const calls = () => server.health().workerCalls as { running: number; queued: number };
    for (let waited = 0; calls().running + calls().queued < 6 && waited < 300; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(server.health()).toMatchObject({ workerCalls: { running: 2, queued: 4, limit: 2 } });
    const bodies = await Promise.all(requests.map(async (r) => (await r).json()));
    for (const b of bodies) expect(b.rewards).toEqual([1, 1]);
    await fake.settled();
    const seen = fake.requests.filter((r) => r.method === 'POST');
    expect(seen).toHaveLength(6);
    // Most calls open at once, from the times the fake server saw each one arrive and close.
    const events = seen.flatMap((c) => [
      { t: c.at, d: 1 },
      { t: c.closedAt!, d: -1 },
    ]);
    events.sort((a, b) => a.t - b.t || a.d - b.d);
    let open = 0;
    let most = 0;
    for (const e of events) most = Math.max(most, (open += e.d));
    expect(most).toBe(2);
  });

  it('stops at the dollar budget: the call it cannot afford is an infrastructure error, then 402', async () => {
    // Worst case of one call: ~100 input tokens + 1000 output at $100 per million = ~$0.11, and the first
    // call spends ~$0.1 of it (900 tokens out): the second does not fit in $0.15.
    const pricey = sim('pricey', 1, { price: { input: 100, output: 100 }, maxTokens: 1000 });
    pricey.simulated!.outputTokens = 900;
    const { server } = await start([pricey], { budgetUsd: 0.15, concurrency: 1 });
    const body = await (await post(server, { items: [{ completion: plan(0, 0), ...QUESTION }] })).json();
    expect(body.rewards).toEqual([null]);
    expect(body.details[0]).toMatchObject({ infraError: true, error: { code: 'run/budget' } });
    expect(body.details[0].costUsd).toBeGreaterThan(0.09);
    const refused = await post(server, { items: [{ completion: plan(0), ...QUESTION }] });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatch(/budget is spent/);
    expect(server.health()).toMatchObject({ budget: { capUsd: 0.15, spent: true } });
  });

  it('on close, finishes the requests in flight and takes no new ones', async () => {
    const worker: WorkerSpec = { id: 'slow', provider: 'openai-compatible', model: 'slow-model', baseUrl: `${fake.url}/v1` };
    const { server } = await start([worker]);
    const inFlight = post(server, { items: [{ completion: plan(0), ...QUESTION }] });
    await new Promise((r) => setTimeout(r, 50));
    const closing = servers.pop()!.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect((await res.json()).rewards).toEqual([1]);
    expect(await closing).toEqual({ served: 1, stopped: 0 });
    await expect(post(server, { items: [{ completion: plan(0), ...QUESTION }] })).rejects.toThrow();
  });

  it('on close past the drain timeout, stops the runs and answers 503 with the reason; the episodes are kept', async () => {
    const worker: WorkerSpec = { id: 'slow', provider: 'openai-compatible', model: 'slow-model', baseUrl: `${fake.url}/v1` };
    fake.script({ text: '<answer>391</answer>', firstByteDelayMs: 5_000 });
    const { server, episodes } = await start([worker], { drainMs: 100 });
    const inFlight = post(server, { step: 2, items: [{ completion: plan(0), ...QUESTION }] });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const closing = servers.pop()!.close();
    const res = await inFlight;
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatch(/shut down before these 1 completions were scored/);
    expect(await closing).toEqual({ served: 0, stopped: 1 });
    expect(Date.now() - started).toBeLessThan(3_000);
    const store = await EpisodeDirStore.open(episodes);
    expect((await store.list()).episodes.map((e) => [e.status, e.tags])).toEqual([['aborted', ['reward-server', 'step:2']]]);
  });
});
