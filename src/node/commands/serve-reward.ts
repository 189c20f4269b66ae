/**
 * `baton serve-reward`: the reward server (src/node/reward-server/) on a worker pool, for an outside RL
 * trainer. Prints {"url": ...} as one JSON line once it listens (port 0: the port it got); SIGINT or
 * SIGTERM stop it cleanly (requests in flight finish, or are answered 503 after --drain-timeout).
 */
import { DEFAULT_MAX_STEPS } from '../../core/workflow/index.ts';
import { atLeast, CliError, int, num, parseFlags, printHelp, text, type CliIo } from '../cli/index.ts';
import { buildPool, POOL_FLAG, readPoolFlag, readReplayFlags, REPLAY_FLAG } from '../inputs/index.ts';
import { isLoopback, startRewardServer, type RewardServer } from '../reward-server/index.ts';
import { openEpisodesDir } from '../stores/index.ts';

const FLAGS = {
  pool: POOL_FLAG,
  host: text({ arg: 'H', help: 'address to listen on; beyond loopback a token is required', default: '127.0.0.1' }),
  port: int({ arg: 'N', help: '0 picks a free port (printed)', default: 8400, check: (p) => (p >= 0 && p <= 65535 ? undefined : `must be 0-65535, got ${p}`) }),
  token: text({ arg: 'T', help: 'bearer token requests must carry (default: $BATON_REWARD_TOKEN)' }),
  concurrency: int({ arg: 'K', help: 'worker calls in flight across all requests; more wait their turn', default: 32, check: atLeast(1) }),
  budget: num({ arg: 'USD', help: 'dollars all worker calls together may cost; then requests get 402', check: atLeast(0) }),
  episodes: text({ arg: 'DIR', help: 'where the episodes are kept (default: $BATON_EPISODES_DIR, else ./episodes)' }),
  'max-steps': int({ arg: 'N', help: 'most steps per workflow', default: DEFAULT_MAX_STEPS, check: atLeast(1) }),
  attempts: int({ arg: 'N', help: 'tries per worker call, backoff 2-30 s between them (default 5)', check: atLeast(1) }),
  seed: int({ arg: 'S', help: 'seed of every simulated worker' }),
  replay: REPLAY_FLAG,
  'max-body-bytes': int({ arg: 'N', help: 'largest request body', default: 4 * 1024 * 1024, check: atLeast(1) }),
  'drain-timeout': int({
    arg: 'MS',
    help: 'on SIGINT/SIGTERM, how long requests in flight may finish before they are stopped',
    default: 60_000,
    check: atLeast(0),
  }),
};

const HELP = {
  usage: `usage: baton serve-reward --pool FILE|demo|experts [options]

Serves the reward of Baton's GRPO loop over HTTP, for an outside RL trainer (TRL, verl; see baton export):
POST /v1/reward {"items": [{"completion", "question", "answer", "kind", "choices"?}], "step"?: n}
answers {"rewards": [...], "details": [...]} in order: 0 when the workflow does not parse, 0.5 when its
answer is wrong, 1 when right; null with infraError where a worker failed (leave those out of training).
Every run is kept as an episode tagged reward-server and step:N. GET /health reports the server's state.
`,
  flags: FLAGS,
};

export async function serveRewardCommand(argv: string[], io: CliIo, stopOn: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): Promise<number> {
  const args = parseFlags(argv, FLAGS);
  if (args.help) return printHelp(io, HELP);
  const { values } = args;
  if (!values.pool) throw new CliError('--pool is required (see baton serve-reward --help)', 2);
  const { host, port, attempts } = values;
  const token = values.token ?? io.env.BATON_REWARD_TOKEN;
  if (token !== undefined && token.trim() === '') throw new CliError('--token is empty', 2);
  if (!isLoopback(host) && token === undefined) {
    throw new CliError(
      `refusing to listen on ${host} without a token: anyone who reaches it could spend your worker budget. Give --token (or $BATON_REWARD_TOKEN), or listen on 127.0.0.1.`,
      2,
    );
  }
  const settings = {
    host,
    port,
    ...(token !== undefined ? { token } : {}),
    concurrency: values.concurrency,
    ...(values.budget !== undefined ? { budgetUsd: values.budget } : {}),
    maxSteps: values['max-steps'],
    maxBodyBytes: values['max-body-bytes'],
    drainMs: values['drain-timeout'],
  };

  const specs = await readPoolFlag(io, values.pool);
  const replay = await readReplayFlags(io, values.replay, specs);
  const pool = await buildPool(specs, io.env, replay, values.seed, attempts !== undefined ? { retry: { attempts } } : {});
  const store = await openEpisodesDir(values.episodes, io, true);
  let server: RewardServer;
  try {
    server = await startRewardServer({ ...settings, pool, store });
  } catch (e) {
    await store.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new CliError(`cannot listen on ${host}:${port} (${code}); pick another --port (0 for any free one).`);
    throw e;
  }
  io.stdout(
    `${JSON.stringify({ url: server.url, reward: `${server.url}/v1/reward`, health: `${server.url}/health`, pool: pool.map((w) => w.spec.id), episodes: store.dir })}\n`,
  );

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
