/**
 * `baton serve-reward`: the reward server (src/node/reward-server.ts) on a worker pool, for an outside RL
 * trainer. Prints {"url": ...} as one JSON line once it listens (port 0: the port it got); SIGINT or
 * SIGTERM stop it cleanly (requests in flight finish, or are answered 503 after --drain-timeout).
 */
import { DEFAULT_MAX_STEPS } from '../../core/workflow/index.ts';
import { openEpisodesDir } from '../episode-dir.ts';
import { CliError, intFlag, numberFlag, parseFlags, type CliIo } from '../io.ts';
import { readPoolFlag } from '../pool-file.ts';
import { isLoopback, startRewardServer, type RewardServer } from '../reward-server.ts';
import { buildPool } from './run.ts';
import { readReplayFlags } from '../replay-data.ts';

const DEFAULT_PORT = 8400;
const DEFAULT_CONCURRENCY = 32;
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

const USAGE = `usage: baton serve-reward --pool FILE|demo|experts [options]

Serves the reward of Baton's GRPO loop over HTTP, for an outside RL trainer (TRL, verl; see baton export):
POST /v1/reward {"items": [{"completion", "question", "answer", "kind", "choices"?}], "step"?: n}
answers {"rewards": [...], "details": [...]} in order: 0 when the workflow does not parse, 0.5 when its
answer is wrong, 1 when right; null with infraError where a worker failed (leave those out of training).
Every run is kept as an episode tagged reward-server and step:N. GET /health reports the server's state.

options:
  --pool P               a pool file, demo (four simulated workers), experts (issue 11's experts pool) or
                         routellm-mmlu (GPT-4 and Mixtral replaying their recorded MMLU answers)
  --host H               address to listen on (default 127.0.0.1); beyond loopback a token is required
  --port N               default ${DEFAULT_PORT}; 0 picks a free port (printed)
  --token T              bearer token requests must carry (default: $BATON_REWARD_TOKEN)
  --concurrency K        worker calls in flight across all requests; more wait their turn (default ${DEFAULT_CONCURRENCY})
  --budget USD           dollars all worker calls together may cost; then requests get 402
  --episodes DIR         where the episodes are kept (default: $BATON_EPISODES_DIR, else ./episodes)
  --max-steps N          most steps per workflow (default ${DEFAULT_MAX_STEPS})
  --attempts N           tries per worker call, backoff 2-30 s between them (default 5)
  --seed S               seed of every simulated worker
  --replay FILE          a RouteLLM responses CSV for "replay" workers (repeatable; default: data/routellm)
  --max-body-bytes N     largest request body (default ${DEFAULT_MAX_BODY})
  --drain-timeout MS     on SIGINT/SIGTERM, how long requests in flight may finish before they are stopped (default 60000)
`;

const positive = (flag: string, value: number | undefined, min: number) => {
  if (value !== undefined && !(value >= min)) throw new CliError(`--${flag} must be at least ${min}, got ${value}`, 2);
  return value;
};

export async function serveRewardCommand(argv: string[], io: CliIo, stopOn: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): Promise<number> {
  const { values } = parseFlags(argv, {
    pool: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    token: { type: 'string' },
    concurrency: { type: 'string' },
    budget: { type: 'string' },
    episodes: { type: 'string' },
    'max-steps': { type: 'string' },
    attempts: { type: 'string' },
    seed: { type: 'string' },
    replay: { type: 'string', multiple: true },
    'max-body-bytes': { type: 'string' },
    'drain-timeout': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (!values.pool) throw new CliError('--pool is required (see baton serve-reward --help)', 2);
  const host = values.host ?? '127.0.0.1';
  const token = values.token ?? io.env.BATON_REWARD_TOKEN;
  if (token !== undefined && token.trim() === '') throw new CliError('--token is empty', 2);
  if (!isLoopback(host) && token === undefined) {
    throw new CliError(`refusing to listen on ${host} without a token: anyone who reaches it could spend your worker budget. Give --token (or $BATON_REWARD_TOKEN), or listen on 127.0.0.1.`, 2);
  }
  const port = intFlag('port', values.port, DEFAULT_PORT)!;
  if (port < 0 || port > 65535) throw new CliError(`--port must be 0-65535, got ${port}`, 2);
  const attempts = positive('attempts', intFlag('attempts', values.attempts), 1);
  const settings = {
    host,
    port,
    ...(token !== undefined ? { token } : {}),
    concurrency: positive('concurrency', intFlag('concurrency', values.concurrency, DEFAULT_CONCURRENCY), 1)!,
    ...(values.budget !== undefined ? { budgetUsd: positive('budget', numberFlag('budget', values.budget), 0) } : {}),
    maxSteps: positive('max-steps', intFlag('max-steps', values['max-steps'], DEFAULT_MAX_STEPS), 1)!,
    maxBodyBytes: positive('max-body-bytes', intFlag('max-body-bytes', values['max-body-bytes'], DEFAULT_MAX_BODY), 1)!,
    drainMs: positive('drain-timeout', intFlag('drain-timeout', values['drain-timeout'], 60_000), 0)!,
  };

  const specs = await readPoolFlag(io, values.pool);
  const replay = await readReplayFlags(io, values.replay, specs);
  const pool = await buildPool(specs, io.env, replay, intFlag('seed', values.seed), attempts !== undefined ? { retry: { attempts } } : {});
  const store = await openEpisodesDir(values.episodes, io, true);
  let server: RewardServer;
  try {
    server = await startRewardServer({ ...settings, pool, store });
  } catch (e) {
    await store.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new CliError(`cannot listen on ${host}:${port} (${code}); pick another --port (0 for any free one).`);
    throw e;
  }
  io.stdout(`${JSON.stringify({ url: server.url, reward: `${server.url}/v1/reward`, health: `${server.url}/health`, pool: pool.map((w) => w.spec.id), episodes: store.dir })}\n`);

  // The first signal drains; another stops the runs in flight at once, and they are still answered (503).
  let signals = 0;
  let stopping: (signal: NodeJS.Signals) => void = () => {};
  const onSignal = (signal: NodeJS.Signals) => {
    if (signals++ === 0) return stopping(signal);
    io.stderr(`baton serve-reward: ${signal} again: stopping the runs in flight; their requests are answered 503\n`);
    server.stopNow();
  };
  for (const name of stopOn) process.on(name, onSignal);
  try {
    const signal = await new Promise<NodeJS.Signals>((resolve) => (stopping = resolve));
    io.stderr(`baton serve-reward: ${signal}: taking no new requests; finishing ${server.health().inFlight} in flight (${signal} again to stop them now)\n`);
    const { served, stopped } = await server.close();
    io.stderr(`baton serve-reward: stopped after ${served} requests${stopped ? `; ${stopped} cut short by the shutdown were answered 503` : ''}\n`);
  } finally {
    for (const name of stopOn) process.off(name, onSignal);
  }
  return 0;
}
