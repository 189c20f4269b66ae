/**
 * The reward server behind `baton serve-reward`: an outside RL trainer (TRL, verl) posts its Conductor's
 * completions and gets back the reward Baton's own GRPO loop would give each one (core/rl's
 * scoreCompletion: parse, run on the pool, grade), with infrastructure failures flagged so the trainer
 * can leave them out. Every run is kept as an episode tagged "reward-server" and the trainer's "step:N".
 *
 * - `POST /v1/reward` {"items": [{completion, question, answer, kind, choices?}], "step"?: n} ->
 *   {"rewards": [r | null, ...], "details": [{reward, correct, format, costUsd, infraError?, error?,
 *   parseError?, final, episodeId}, ...]} in item order; `null` (and infraError: true) where a worker
 *   call failed or the budget refused it.
 * - `GET /health`: pool, requests and items served, worker calls running and queued, budget.
 * - A bearer token when one is set (401 otherwise); bodies over the size limit 413; bad JSON, missing
 *   fields and unknown kinds 400 with the reason; 402 once the dollar budget is spent; 503 while
 *   shutting down.
 * - Worker calls from every request share `concurrency` slots (a queue, not a refusal) and one budget.
 * - close(): stops accepting, lets requests in flight finish for `drainMs`, then stops their runs and
 *   answers them 503 with the reason; never drops one without an answer.
 * Test: test/unit/node/reward-server/reward-server.test.ts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Episode, EpisodeStore } from '../../core/episodes/index.ts';
import { BudgetLedger, CallSlots } from '../../core/orchestra/index.ts';
import type { WorkerModel } from '../../core/providers/index.ts';
import { scoreCompletion } from '../../core/rl/index.ts';
import { parseRewardRequest, RequestError, type RewardRequest } from './reward-request.ts';

export interface RewardServerOptions {
  pool: WorkerModel[];
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Bearer token every request but GET /health must carry; none = no check (loopback only, the CLI insists). */
  token?: string;
  /** Worker calls in flight across all requests. */
  concurrency: number;
  /** Dollars all worker calls together may cost. */
  budgetUsd?: number;
  maxSteps: number;
  maxBodyBytes: number;
  store: Pick<EpisodeStore, 'putMany' | 'close'>;
  /** How long close() lets requests in flight finish before it stops their runs. */
  drainMs: number;
}

interface ItemDetail {
  reward: number | null;
  correct: boolean;
  format: boolean;
  /** Dollars the item's worker calls cost; null when a call's cost is unknown. */
  costUsd: number | null;
  infraError?: true;
  error?: { code: string; message: string };
  parseError?: string;
  final: string;
  episodeId: string;
}

export interface RewardServer {
  readonly url: string;
  readonly port: number;
  health(): Record<string, unknown>;
  /** Stops the runs in flight at once (their requests are answered 503), without waiting for the drain timeout. */
  stopNow(): void;
  /** Resolves once every request has had its answer: how many were served in all, and how many cut short by the close. */
  close(): Promise<{ served: number; stopped: number }>;
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|localhost)$/i;
export const isLoopback = (host: string) => LOOPBACK.test(host);

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Why an item's run counts as an infrastructure failure, in one line. */
function infraCause(ep: Episode): { code: string; message: string } {
  if (ep.error) return ep.error;
  const steps = [...ep.steps, ...ep.rounds.flatMap((r) => r.steps)];
  const cause = steps.find((s) => s.error && s.error.code !== 'run/aborted')?.error;
  return cause ?? { code: ep.status === 'budget' ? 'run/budget' : 'provider/server', message: `the run ended with status ${ep.status}` };
}

function detailOf(ep: Episode): ItemDetail {
  const reward = ep.reward;
  const infra = !reward || reward.infraError === true;
  return {
    reward: infra ? null : reward.value,
    correct: reward?.correct ?? false,
    format: ep.parseError === undefined,
    costUsd: ep.totals.costUsd,
    ...(infra ? { infraError: true as const, error: infraCause(ep) } : {}),
    ...(ep.parseError !== undefined ? { parseError: ep.parseError } : {}),
    final: ep.final,
    episodeId: ep.id,
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** The body as text, or a 413 RequestError once it passes `limit` bytes (the rest is read and dropped). */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers['content-length'] ?? 0) > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () =>
      over ? reject(new RequestError(413, `the body is over the ${limit}-byte limit (--max-body-bytes).`)) : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

export async function startRewardServer(options: RewardServerOptions): Promise<RewardServer> {
  const slots = new CallSlots(options.concurrency);
  const budget = options.budgetUsd !== undefined ? new BudgetLedger(options.budgetUsd) : undefined;
  const stopRuns = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const counts = { requests: 0, items: 0, infraErrors: 0, stopped: 0 };
  let budgetSpent = false;
  let draining = false;
  let requestNumber = 0;
  const token = options.token === undefined ? undefined : digest(options.token);

  const authorised = (req: IncomingMessage) => {
    if (!token) return true;
    const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    return given !== undefined && timingSafeEqual(digest(given), token);
  };

  const budgetLeft = () => budget === undefined || (!budgetSpent && budget.spentUsd < budget.capUsd);

  async function score(request: RewardRequest): Promise<Episode[]> {
    const id = ++requestNumber;
    const groups = new Map<string, number>();
    const tags = ['reward-server', ...(request.step !== undefined ? [`step:${request.step}`] : [])];
    const scored = await Promise.all(
      request.items.map(({ task, completion }) => {
        // Items asking the same question form one GRPO group, as the trainer sampled them.
        if (!groups.has(task.question)) groups.set(task.question, groups.size);
        return scoreCompletion(task, options.pool, completion, {
          maxSteps: options.maxSteps,
          group: `reward-${id}-${groups.get(task.question)}`,
          tags,
          conductorModel: 'trainer',
          ...(budget ? { budget } : {}),
          slots,
          signal: stopRuns.signal,
        });
      }),
    );
    return scored.map((s) => s.episode);
  }

  async function reward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!authorised(req))
      return send(
        res,
        401,
        { error: 'a bearer token is required: send "Authorization: Bearer <token>" with the token the server was started with.' },
        { 'www-authenticate': 'Bearer' },
      );
    const request = parseRewardRequest(await readBody(req, options.maxBodyBytes));
    if (!budgetLeft()) {
      return send(res, 402, {
        error: `the $${budget!.capUsd} budget is spent ($${budget!.spentUsd.toFixed(4)} used): restart the server with a larger --budget.`,
      });
    }
    const episodes = await score(request);
    await options.store.putMany(episodes);
    if (episodes.some((ep) => ep.status === 'budget')) budgetSpent = true;
    if (episodes.some((ep) => ep.status === 'aborted')) {
      counts.stopped++;
      return send(res, 503, {
        error: `the server shut down before these ${episodes.length} completions were scored; their runs were stopped (kept as episodes with status "aborted"). Send them again to a running server.`,
      });
    }
    const details = episodes.map(detailOf);
    counts.requests++;
    counts.items += details.length;
    counts.infraErrors += details.filter((d) => d.infraError).length;
    send(res, 200, { rewards: details.map((d) => d.reward), details });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/health' && req.method === 'GET') return send(res, 200, health());
    if (path !== '/v1/reward') return send(res, 404, { error: `no route ${req.method} ${path}: POST /v1/reward or GET /health.` });
    if (req.method !== 'POST') return send(res, 405, { error: `${path} takes POST.` }, { allow: 'POST' });
    if (draining) return send(res, 503, { error: 'the server is shutting down and takes no new requests.' }, { connection: 'close' });
    try {
      await reward(req, res);
    } catch (e) {
      if (e instanceof RequestError) send(res, e.status, { error: e.message }, e.status === 413 ? { connection: 'close' } : {});
      else send(res, 500, { error: `could not score the request: ${(e as Error)?.message ?? String(e)}` });
    }
  }

  function health(): Record<string, unknown> {
    return {
      ok: !draining,
      draining,
      pool: options.pool.map((w) => w.spec.id),
      served: { requests: counts.requests, items: counts.items, infraErrors: counts.infraErrors },
      inFlight: inFlight.size,
      workerCalls: { running: slots.running, queued: slots.queued, limit: slots.limit },
      budget: budget ? { capUsd: budget.capUsd, spentUsd: budget.spentUsd, spent: !budgetLeft() } : null,
    };
  }

  const server = createServer((req, res) => {
    const done = handle(req, res).catch((e) => send(res, 500, { error: String(e) }));
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${host}:${port}`,
    port,
    health,
    stopNow: () => stopRuns.abort(),
    async close() {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const before = counts.stopped;
      const timer = setTimeout(() => stopRuns.abort(), options.drainMs);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
      await options.store.close();
      const stopped = counts.stopped - before;
      return { served: counts.requests, stopped };
    },
  };
}
