/**
 * `npm run verify:python`: Baton's path to a cluster checked against the real Python libraries, pinned in
 * test/python/requirements.txt and installed into test/python/.venv (made on the first run). Not part of
 * `npm test`: the environment is about 1.4 GiB. Every Baton step runs as a user runs it (the CLI as its own
 * process); the Python side is the small scripts beside this file. Checks (docs/testing.md):
 *  1. tiny Qwen2 and Qwen3 from `baton init-model`, trained by `baton train` (LoRA on every projection):
 *     PEFT's adapter on transformers' model gives `baton logprobs --lora`'s logprobs, and `baton adapter
 *     merge`'s directory loads in transformers with the same;
 *  2. `baton export trl`'s launch.sh as written (CPU overrides as arguments) runs 2 steps of TRL's
 *     GRPOTrainer rewarded by a live `baton serve-reward --pool demo`: TRL's logged rewards are the server's,
 *     TRL's adapter scores the same in Baton and in PEFT; reward_fn through TRL's own reward call, with chat
 *     and text completions, returns the server's rewards;
 *  3. pyarrow reads every Parquet file of both exports as their JSONL; verl's reward-manager calls return
 *     the server's rewards;
 *  4. verl's config classes, where verl imports.
 * Prints one line a check and exits 1 at the first failure.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { filesFromDir } from '../../src/engine/model/files-node.ts';
import { loadTokenizer } from '../../src/engine/tokenizer/index.ts';
import type { ChatMessage } from '../../src/core/providers/index.ts';
import { TINY_CONDUCTOR_INIT } from '../support/tiny-model.ts';

const HERE = import.meta.dirname;
const ROOT = join(HERE, '..', '..');
const VENV = join(HERE, '.venv');
const BIN = join(VENV, 'bin');
const PYTHON = join(BIN, 'python');
const BATON = join(ROOT, 'bin', 'baton.js');
const TOLERANCE = 1e-4;
const TEXT = 'What is 17 * 23? model_id = [0]\nsubtasks = ["Add them."]';

const work = mkdtempSync(join(tmpdir(), 'baton-verify-python-'));
const started = Date.now();
let passed = 0;
let server: ChildProcess | undefined;

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const env = { ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`, PYTHONUNBUFFERED: '1', TOKENIZERS_PARALLELISM: 'false' };

function check(ok: boolean, what: string, since: number): void {
  if (!ok) throw new Error(`FAILED: ${what}`);
  passed++;
  console.log(`ok ${passed}  ${what}  (${seconds(since)})`);
}

function run(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync(file, args, { cwd: opts.cwd ?? work, env: opts.env ?? env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
}

const baton = (...args: string[]) => run(process.execPath, [BATON, ...args]);
/** The last line a script printed, as JSON. */
const python = (script: string, ...args: string[]) =>
  JSON.parse(
    run(PYTHON, [join(HERE, script), ...args])
      .trim()
      .split('\n')
      .at(-1)!,
  );

interface Logprobs {
  tokens: number[];
  logprobs: number[];
}
function logprobs(file: string, model: string, lora?: string): Logprobs {
  const out = baton('logprobs', '--model', model, ...(lora ? ['--lora', lora] : []), '--weights', 'f32', '--text', TEXT);
  writeFileSync(join(work, file), out);
  return JSON.parse(out) as Logprobs;
}
const maxDiff = (a: Logprobs, b: Logprobs) => Math.max(...a.logprobs.map((x, i) => Math.abs(x - b.logprobs[i])));

function matches(model: string, batonJson: string, lora?: string): { maxDiff: number; tokensMatch: boolean } {
  return python('logprobs_match.py', model, join(work, batonJson), TEXT, ...(lora ? ['--lora', lora] : []));
}

function venv(): void {
  const since = Date.now();
  if (!existsSync(PYTHON)) run('python3', ['-m', 'venv', VENV], { cwd: ROOT });
  run(PYTHON, ['-m', 'pip', 'install', '--quiet', '-r', join(HERE, 'requirements.txt')], { cwd: ROOT });
  const versions = run(PYTHON, [
    '-c',
    'import torch, transformers, peft, trl, pyarrow; print(torch.__version__, transformers.__version__, peft.__version__, trl.__version__, pyarrow.__version__)',
  ]);
  const [torch, transformers, peft, trl, pyarrow] = versions.trim().split(' ');
  check(trl === '1.13.0', `environment: torch ${torch}, transformers ${transformers}, peft ${peft}, trl ${trl}, pyarrow ${pyarrow}`, since);
}

function adapters(arch: 'qwen2' | 'qwen3'): string {
  let since = Date.now();
  const model = join(work, `model-${arch}`);
  // The CLI tests' tiny Conductor, written here and in the architecture asked for.
  baton(...TINY_CONDUCTOR_INIT.map((arg) => (arg === 'model' ? model : arg)), '--arch', arch);
  const trained = join(work, `train-${arch}`);
  baton(
    'train', '--model', model, '--pool', 'experts', '--tasks', 'experts-short', '--steps', '3', '--questions', '2', '--group', '3', '--max-completion-tokens', '56',
    '--max-subtask-chars', '6', '--constrain', '--prompt', 'compact', '--max-steps', '2', '--lr', '0.01', '--targets', 'all', '--r', '4', '--weights', 'f32', '--seed', '3', '--out', trained,
  ); // prettier-ignore
  const adapter = join(trained, 'adapter');
  const base = logprobs(`${arch}-base.json`, model);
  const adapted = logprobs(`${arch}-lora.json`, model, adapter);
  const peft = matches(model, `${arch}-lora.json`, adapter);
  check(
    peft.tokensMatch && peft.maxDiff < TOLERANCE && maxDiff(base, adapted) > 100 * TOLERANCE,
    `${arch}: baton train's adapter (all 7 projections) in PEFT on transformers = baton logprobs --lora: max |diff| ${peft.maxDiff.toExponential(1)} over ${adapted.logprobs.length} tokens (the adapter moves them ${maxDiff(base, adapted).toExponential(1)}); tokenizer gives Baton's ids`,
    since,
  );
  since = Date.now();
  const merged = join(work, `merged-${arch}`);
  baton('adapter', 'merge', '--model', model, '--lora', adapter, '--out', merged);
  const fromMerged = matches(merged, `${arch}-lora.json`);
  check(
    fromMerged.maxDiff < TOLERANCE,
    `${arch}: baton adapter merge's directory in transformers = baton logprobs --lora: max |diff| ${fromMerged.maxDiff.toExponential(1)}`,
    since,
  );
  return model;
}

/** `baton serve-reward` as its own process; resolves with its URL once it listens. */
function serveReward(episodes: string): Promise<string> {
  server = spawn(process.execPath, [BATON, 'serve-reward', '--pool', 'demo', '--port', '0', '--episodes', episodes], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    server!.once('exit', (code) => reject(new Error(`serve-reward exited with ${code}`)));
    createInterface({ input: server!.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
}

interface StoredEpisode {
  completion: { text: string };
  task: { question: string };
  tags: string[];
  reward?: { value: number | null };
}
const storedEpisodes = (dir: string) =>
  baton('episodes', 'export', '--dir', dir)
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as StoredEpisode);

/** Whether every item's reward is the one the server stored for its question and completion, and they differ. */
function sameAsServer(items: { question: string; completion: string; reward: number }[], episodes: StoredEpisode[]): boolean {
  const stored = new Map(episodes.map((e) => [`${e.task.question}\n${e.completion.text}`, e.reward?.value]));
  return items.every((i) => stored.get(`${i.question}\n${i.completion}`) === i.reward) && new Set(items.map((i) => i.reward)).size > 1;
}

async function trl(model: string, url: string, episodes: string): Promise<void> {
  let since = Date.now();
  const out = join(work, 'export-trl');
  baton('export', 'trl', '--tasks', 'experts', '--pool', 'demo', '--out', out, '--model', model, '--reward-url', `${url}/v1/reward`);
  const cpu = [
    '--max_steps',
    '2',
    '--num_generations',
    '4',
    '--per_device_train_batch_size',
    '8',
    '--gradient_accumulation_steps',
    '1',
    '--max_completion_length',
    '24',
  ];
  // On a CPU: no vLLM, no bf16; a large rate without warm-up and an entropy bonus, so the adapter moves although
  // an untrained tiny model's plans all score 0.
  cpu.push('--use_vllm', 'false', '--bf16', 'false', '--use_cpu', 'true', '--learning_rate', '0.01', '--warmup_steps', '0', '--entropy_coef', '0.1');
  const log = run('bash', [join(out, 'launch.sh'), ...cpu], { env: { ...env, NUM_GPUS: '1' } });
  writeFileSync(join(work, 'trl-launch.log'), log);
  const final = join(out, 'runs', 'conductor', 'final');
  const history = (JSON.parse(readFileSync(join(final, 'trainer_state.json'), 'utf8')) as { log_history: Record<string, number>[] }).log_history.filter(
    (h) => 'reward' in h,
  );
  const served = storedEpisodes(episodes);
  const perStep = history.map((h) => {
    const rewards = served.filter((e) => e.tags.includes(`step:${h.step - 1}`)).map((e) => e.reward?.value ?? NaN);
    return { step: h.step, logged: h.reward, served: rewards.reduce((a, b) => a + b, 0) / rewards.length, count: rewards.length };
  });
  check(
    perStep.length === 2 && perStep.every((s) => s.count === 8 && Math.abs(s.logged - s.served) < 1e-6),
    `trl: bash launch.sh ran 2 GRPOTrainer steps on CPU; each step's logged reward is the mean of the 8 the server scored and kept (${perStep.map((s) => `step ${s.step}: ${s.logged} of ${s.count}`).join(', ')})`,
    since,
  );
  since = Date.now();
  const base = logprobs('trl-base.json', model);
  const back = logprobs('trl-lora.json', model, final);
  const peft = matches(model, 'trl-lora.json', final);
  check(
    peft.maxDiff < TOLERANCE && maxDiff(base, back) > 10 * TOLERANCE,
    `trl: the adapter TRL saved loads in Baton: baton logprobs --lora = PEFT on transformers, max |diff| ${peft.maxDiff.toExponential(1)} (it moves them ${maxDiff(base, back).toExponential(1)})`,
    since,
  );
  since = Date.now();
  const { items, promptIds } = python('trl_rewards.py', out, model, '1000') as {
    items: { question: string; completion: string; reward: number }[];
    promptIds: number[];
  };
  check(
    sameAsServer(items, storedEpisodes(episodes)),
    `trl: reward_fn through GRPOTrainer's own reward call, chat and text completions: the server's rewards (${items.map((i) => i.reward).join(' ')})`,
    since,
  );
  since = Date.now();
  const [row] = readFileSync(join(out, 'train.jsonl'), 'utf8').split('\n');
  const batons = (await loadTokenizer(filesFromDir(model))).encodeChat((JSON.parse(row) as { prompt: ChatMessage[] }).prompt, { continueFinal: true });
  check(
    JSON.stringify(batons) === JSON.stringify(promptIds),
    `trl: the prompt train_trl.py hands GRPOTrainer is, token for token, the one Baton's own sampler continues (${promptIds.length} tokens, the prefill left open)`,
    since,
  );
}

function parquetAndVerl(url: string, episodes: string): void {
  let since = Date.now();
  const out = join(work, 'export-verl');
  baton('export', 'verl', '--tasks', 'experts', '--pool', 'demo', '--out', out, '--reward-url', `${url}/v1/reward`);
  const files = ['export-trl', 'export-verl'].flatMap((dir) =>
    run(PYTHON, [join(HERE, 'parquet_match.py'), join(work, dir)])
      .trim()
      .split('\n')
      .map((line) => ({ dir, ...(JSON.parse(line) as { file: string; rows: number; equal: boolean }) })),
  );
  check(
    files.length === 4 && files.every((f) => f.equal),
    `pyarrow reads every Parquet file as its JSONL: ${files.map((f) => `${f.dir}/${f.file} (${f.rows} rows)`).join(', ')}`,
    since,
  );
  since = Date.now();
  const { items } = python('verl_rewards.py', out) as { items: { question: string; completion: string; reward: number; infra_error: number }[] };
  check(
    sameAsServer(items, storedEpisodes(episodes)) && items.every((i) => i.infra_error === 0),
    `verl: compute_score_batch and compute_score, called as verl's reward managers call them (NumPy object arrays): the server's rewards (${items.map((i) => i.reward).join(' ')})`,
    since,
  );
  since = Date.now();
  let verl: string;
  try {
    verl = run(PYTHON, ['-c', 'import verl; print(verl.__version__)']).trim();
  } catch {
    verl = '';
  }
  check(
    true,
    verl
      ? `verl ${verl} imports, but this script does not build launch.sh's config with its config classes; checked: its Parquet (pyarrow) and its reward functions (as verl calls them)`
      : "verl: not installable here (the package index serves no verl), so launch.sh's overrides were NOT built with verl's config classes; checked instead: its Parquet (pyarrow) and its reward functions (as verl calls them)",
    since,
  );
}

async function main(): Promise<void> {
  console.log(`verify:python in ${work}`);
  venv();
  adapters('qwen2');
  const model = adapters('qwen3');
  const episodes = join(work, 'episodes');
  const url = await serveReward(episodes);
  await trl(model, url, episodes);
  parquetAndVerl(url, episodes);
  console.log(`${passed} passed, 0 failed  (${seconds(started)}; work files removed)`);
}

try {
  await main();
  rmSync(work, { recursive: true, force: true });
} catch (e) {
  const err = e as Error & { stdout?: string; stderr?: string };
  console.error(err.stderr || err.stdout || '', `\n${err.message}\nwork files kept in ${work}`);
  console.log(`${passed} passed, 1 failed`);
  process.exitCode = 1;
} finally {
  server?.removeAllListeners('exit');
  server?.kill('SIGTERM');
}
