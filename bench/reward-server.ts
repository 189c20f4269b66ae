/**
 * The reward server under load: `baton serve-reward` started as its own process on a simulated pool, then
 * REQUESTS requests of ITEMS completions each sent all at once, with a malformed request (which must get
 * 400) after every BAD_EVERY of them; the completions mix 1-4 step plans and malformed ones. Prints one JSON line:
 * latency p50/p95 of the good requests, completions scored per second, and the counts that show
 * nothing was lost (every request answered, every scored completion one reward and one episode on disk).
 *
 * Run: npm run bench:reward-server [-- --pool experts|demo --concurrency K --requests N --items M]
 * experts (the default) has no worker latency, so the figures are the server's own cost; demo's workers
 * take 0.3-1.5 s a call, so its figures are bound by --concurrency.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pool: { type: 'string', default: 'experts' },
    concurrency: { type: 'string', default: '64' },
    requests: { type: 'string', default: '200' },
    items: { type: 'string', default: '8' },
  },
});
const REQUESTS = Number(values.requests);
const ITEMS = Number(values.items);
const BAD_EVERY = 10;
const BAD = Math.floor(REQUESTS / BAD_EVERY);

const plan = (workers: number[]) =>
  `model_id = [${workers.join(', ')}]\nsubtasks = [${workers.map((_, i) => `"Step ${i}: solve it; answer in <answer></answer> tags."`).join(', ')}]\naccess_list = [${workers.map((_, i) => (i === 0 ? '[]' : '"all"')).join(', ')}]`;

const QUESTIONS = [
  { question: 'Tom has 3 boxes of 12 pencils and gives away 7. How many are left?', answer: '29', kind: 'gsm8k' },
  { question: 'Which planet is largest?\nA. Mars\nB. Jupiter\nC. Venus\nD. Earth', answer: 'B', kind: 'mcq', choices: ['Mars', 'Jupiter', 'Venus', 'Earth'] },
];

function item(r: number, i: number) {
  const shape = (r * ITEMS + i) % 5;
  const completion = shape === 4 ? 'I would ask the best model.' : plan([[3], [0], [1, 2], [3, 0, 1]][shape]);
  return { completion, ...QUESTIONS[r % QUESTIONS.length] };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'baton-bench-reward-'));
  const server = spawn(
    process.execPath,
    [
      resolve('bin/baton.js'),
      'serve-reward',
      '--pool',
      values.pool!,
      '--port',
      '0',
      '--concurrency',
      values.concurrency!,
      '--episodes',
      join(dir, 'eps'),
      '--seed',
      '1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  server.stderr!.on('data', (chunk) => (log += chunk));
  const first = await new Promise<string>((ok, fail) => {
    createInterface({ input: server.stdout! }).once('line', ok);
    server.once('exit', (code) => fail(new Error(`baton serve-reward exited (${code}) before listening`)));
  });
  const url = JSON.parse(first).reward as string;

  const answered = { ok: 0, badRequest: 0, other: 0 };
  let rewards = 0;
  let infraErrors = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: REQUESTS + BAD }, async (_, n) => {
      const bad = n % (BAD_EVERY + 1) === BAD_EVERY;
      const r = n - Math.floor(n / (BAD_EVERY + 1));
      const body = bad
        ? JSON.stringify({ items: [{ completion: 'x', question: 'q', answer: '1', kind: 'poem' }] })
        : JSON.stringify({ step: r, items: Array.from({ length: ITEMS }, (_, i) => item(r, i)) });
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const json = await res.json();
      if (res.status === 200) {
        latencies.push(performance.now() - t0);
        answered.ok++;
        rewards += json.rewards.filter((x: unknown) => typeof x === 'number').length;
        infraErrors += json.details.filter((d: { infraError?: boolean }) => d.infraError).length;
        if (json.rewards.length !== ITEMS) answered.other++;
      } else if (res.status === 400 && bad) answered.badRequest++;
      else answered.other++;
    }),
  );
  const wallS = (performance.now() - started) / 1000;

  server.kill('SIGTERM');
  const exitCode = await new Promise<number | null>((ok) => server.once('exit', ok));
  if (exitCode !== 0) process.stderr.write(log);
  const days = await readdir(join(dir, 'eps'));
  const episodes = (await Promise.all(days.map(async (f) => (await readFile(join(dir, 'eps', f), 'utf8')).split('\n').filter(Boolean).length))).reduce(
    (a, b) => a + b,
    0,
  );
  await rm(dir, { recursive: true, force: true });

  const sorted = latencies.sort((a, b) => a - b);
  const sent = REQUESTS * ITEMS;
  console.log(
    JSON.stringify({
      bench: 'reward-server',
      pool: values.pool,
      concurrency: Number(values.concurrency),
      requests: REQUESTS,
      itemsPerRequest: ITEMS,
      latencyMs: { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), max: round(sorted.at(-1)!) },
      wallS: round(wallS, 2),
      completionsPerS: round(sent / wallS),
      counts: {
        sent: { requests: REQUESTS, malformedRequests: BAD, completions: sent },
        answered: { ok: answered.ok, rejected400: answered.badRequest, unexpected: answered.other },
        scored: rewards,
        infraErrors,
        episodesOnDisk: episodes,
        nothingLost: answered.ok === REQUESTS && answered.badRequest === BAD && answered.other === 0 && rewards + infraErrors === sent && episodes === sent,
      },
      serverExit: exitCode,
    }),
  );
}

await main();
