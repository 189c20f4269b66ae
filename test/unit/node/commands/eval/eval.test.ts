/**
 * `baton eval` as a user runs it: their own files through --map (JSONL, CSV, Parquet), a Hub dataset
 * through a stand-in datasets server, a simulated pool; the report recomputed from OUT/episodes.jsonl;
 * and a CLI killed mid-run and resumed, counting calls at a fake OpenAI-compatible server.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../../../../src/core/bench/index.ts';
import type { Episode } from '../../../../../src/core/episodes/index.ts';
import type { WorkerSpec } from '../../../../../src/core/providers/index.ts';
import { main } from '../../../../../src/node/main.ts';
import { recordingIo } from '../../../../support/cli-io.ts';
import { readGzippedData } from '../../../../support/data.ts';
import { startFakeDatasetsServer, type FakeDatasetsServer } from '../../../../support/fake-datasets-server.ts';
import { startFakeProviderServer, type FakeProviderServer } from '../../../../support/fake-provider-server.ts';

const POOL: WorkerSpec[] = [
  { id: 'good', provider: 'simulated', model: 'g', price: { input: 1, output: 4 }, simulated: { skill: { default: 0.85 }, latencyMs: 0, outputTokens: 30 } },
  { id: 'poor', provider: 'simulated', model: 'p', price: { input: 0.2, output: 0.8 }, simulated: { skill: { default: 0.3 }, latencyMs: 0, outputTokens: 30 } },
];

const ROWS = Array.from({ length: 30 }, (_, i) => ({ q: `What is ${i + 2} times ${i + 5}?`, a: (i + 2) * (i + 5), key: `k${i}` }));

let dir: string;
const newDir = () => (dir = mkdtempSync(join(tmpdir(), 'baton-eval-')));
const write = (name: string, text: string | Uint8Array) => writeFileSync(join(dir, name), text);
const read = (path: string) => readFileSync(join(dir, path), 'utf8');
const episodesOf = (out: string): Episode[] =>
  read(`${out}/episodes.jsonl`)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

async function baton(...args: string[]) {
  const io = recordingIo(dir);
  const code = await main(['eval', ...args], io);
  return { code, out: io.out, err: io.err };
}

describe('baton eval on a user file', () => {
  it('maps the fields, runs every method, and writes a report that the stored episodes reproduce', async () => {
    newDir();
    write('pool.json', JSON.stringify({ workers: POOL }));
    write('sums.jsonl', ROWS.map((r) => JSON.stringify(r)).join('\n'));
    const r = await baton(
      '--dataset',
      'sums.jsonl',
      '--map',
      'question=q,answer=a,id=key',
      '--kind',
      'number',
      '--pool',
      'pool.json',
      '--method',
      'single:good',
      '--method',
      'oracle',
      '--method',
      'moa',
      '--method',
      'random',
      '--repeats',
      '2',
      '--seed',
      '4',
      '--out',
      'out',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/oracle: adding single:poor/);
    expect(r.err).toMatch(/eval 240\/240 runs {2}accuracy 0\.\d{3} \(\d+\/240\) {2}\$\d+\.\d{4}/);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['calls.jsonl', 'episodes.jsonl', 'eval.json', 'plot.svg', 'report.json', 'report.md']);

    const report = JSON.parse(read('out/report.json')) as EvalReport;
    const episodes = episodesOf('out');
    expect(episodes).toHaveLength(30 * 2 * 4);
    expect(report.methods.map((m) => m.method)).toEqual(['single:good', 'moa', 'random', 'single:poor', 'oracle']);
    for (const row of report.methods.filter((m) => m.method !== 'oracle')) {
      // Per item: the mean of its repeats; accuracy: their mean; error: their sample SD / sqrt(items).
      const perItem = new Map<string, number[]>();
      for (const e of episodes.filter((x) => x.tags.includes(`method:${row.method}`))) {
        const item = e.tags.find((t) => t.startsWith('item:'))!.slice(5);
        perItem.set(item, [...(perItem.get(item) ?? []), e.reward!.correct ? 1 : 0]);
      }
      const means = [...perItem.values()].map((xs) => xs.reduce((a, b) => a + b) / xs.length);
      const m = means.reduce((a, b) => a + b) / means.length;
      const se = Math.sqrt(means.reduce((s, x) => s + (x - m) ** 2, 0) / (means.length - 1) / means.length);
      expect(row.accuracy, row.method).toBeCloseTo(m, 12);
      expect(row.stderr, row.method).toBeCloseTo(se, 12);
      expect(row.costUsd.total).toBeCloseTo(
        episodes.filter((x) => x.tags.includes(`method:${row.method}`)).reduce((s, e) => s + e.totals.costUsd!, 0),
        12,
      );
    }
    const oracle = report.methods.find((m) => m.method === 'oracle')!;
    for (const single of ['single:good', 'single:poor'])
      expect(oracle.accuracy).toBeGreaterThanOrEqual(report.methods.find((m) => m.method === single)!.accuracy);
    expect(episodes[0].task).toMatchObject({ kind: 'number', dataset: 'sums.jsonl' });
    expect(new Set(episodes.map((e) => e.task.itemId))).toEqual(new Set(ROWS.map((x) => x.key)));
    expect(
      read('out/report.md')
        .split('\n')
        .filter((l) => /^\| (single|moa|random|oracle)/.test(l)),
    ).toHaveLength(5);
    expect(read('out/plot.svg').match(/<circle class="method"/g)).toHaveLength(5);
    expect(r.out).toBe(`${read('out/report.md')}\nwritten to ${join(dir, 'out')}\n`);
  });

  it('stops on bad CSV rows with their lines and makes no --out; --skip-bad reports them and goes on', async () => {
    newDir();
    write('pool.json', JSON.stringify(POOL));
    write('set.csv', 'question,answer\n"What is 2+2?",4\n"no answer",\n"What is\n3+3?",6\nstray\n');
    const stopped = await baton('--dataset', 'set.csv', '--kind', 'number', '--pool', 'pool.json', '--method', 'single:good', '--out', 'out');
    expect(stopped.code).toBe(1);
    expect(stopped.err).toBe(
      'baton eval: set.csv: 2 rows cannot be used: line 3: no answer in column "answer"; line 6: 1 fields where the header has 2. Fix them, change --map, or pass --skip-bad to leave them out.\n',
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
    const skipped = await baton('--dataset', 'set.csv', '--kind', 'number', '--pool', 'pool.json', '--method', 'single:good', '--skip-bad', '--out', 'out');
    expect(skipped.code, skipped.err).toBe(0);
    expect(skipped.err).toContain('skipped set.csv line 3: no answer in column "answer"\nskipped set.csv line 6: 1 fields where the header has 2\n');
    expect(episodesOf('out').map((e) => e.task.itemId)).toEqual(expect.arrayContaining(['2', '4']));
    expect(JSON.parse(read('out/report.json')).evaluation).toMatchObject({ items: 2, skippedRows: 2 });
  });

  it('names a --pool that is neither a built-in pool nor a file and lists the built-in pools, before reading anything', async () => {
    newDir();
    const r = await baton('--dataset', 'routerbench', '--pool', 'routerbnch-4', '--method', 'oracle', '--out', 'out');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `baton eval: --pool routerbnch-4: no built-in pool of that name, and no pool file ${join(dir, 'routerbnch-4')}. The built-in pools: demo, experts, routellm-mmlu, zeroeval, zeroeval-4, routerbench, routerbench-4.\n`,
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('writes the report to --out NAME.json and the runs to NAME/, resumes from the same --out, and writes over no report', async () => {
    newDir();
    write('pool.json', JSON.stringify(POOL));
    write(
      'sums.jsonl',
      ROWS.slice(0, 6)
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const args = [
      '--dataset',
      'sums.jsonl',
      '--map',
      'question=q,answer=a,id=key',
      '--pool',
      'pool.json',
      '--method',
      'single:good',
      '--max-tokens',
      '50',
      '--concurrency',
      '1',
      '--out',
      'report.json',
    ];
    expect(await baton(...args, '--budget', '-1')).toMatchObject({ code: 2, err: 'baton eval: --budget must be at least 0, got -1\n' });
    const first = await baton(...args, '--budget', '0.0004');
    expect(first.code, first.err).toBe(3);
    const partial = JSON.parse(read('report.json')) as EvalReport;
    expect(partial.evaluation.remaining).toBeGreaterThan(0);
    // Less than the budget is spent: the next call's worst case is what did not fit.
    const spent = episodesOf('report').reduce((s, e) => s + e.totals.costUsd!, 0);
    expect(spent).toBeLessThan(0.0004);
    expect(first.err).toContain(
      `stopped by the --budget of $0.0004: the finished runs cost $${spent.toFixed(4)}, and the next call's worst case (its prompt and max output tokens at its worker's price) did not fit in what was left; ${partial.evaluation.remaining} runs left (continue with a larger one: baton eval --out ${join(dir, 'report.json')} --resume --budget USD)`,
    );
    expect(readdirSync(join(dir, 'report')).sort()).toEqual(['calls.jsonl', 'episodes.jsonl', 'eval.json', 'plot.svg', 'report.md']);
    const resumed = await baton('--out', 'report.json', '--resume', '--budget', '10');
    expect(resumed.code, resumed.err).toBe(0);
    const report = JSON.parse(read('report.json')) as EvalReport;
    expect(report.evaluation).toMatchObject({ items: 6, runs: 6, remaining: 0 });
    expect(report.methods[0].accuracy).toBe(episodesOf('report').filter((e) => e.reward!.correct).length / 6);
    expect(resumed.out).toBe(
      `${read('report/report.md')}\nreport written to ${join(dir, 'report.json')}, its runs, Markdown and plot to ${join(dir, 'report')}\n`,
    );
    const again = await baton(...args);
    expect(again).toMatchObject({ code: 2, err: 'baton eval: --out report.json exists; name a new report file so nothing is overwritten\n' });
  });

  it('reads Parquet through the mapping, with --offset and --limit', async () => {
    newDir();
    write('pool.json', JSON.stringify(POOL));
    write(
      'set.parquet',
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'problem', data: ROWS.map((r) => r.q), type: 'STRING' },
            { name: 'solution', data: ROWS.map((r) => r.a), type: 'INT32' },
            { name: 'kind', data: ROWS.map(() => 'number'), type: 'STRING' },
          ],
        }),
      ),
    );
    const r = await baton(
      '--dataset',
      'set.parquet',
      '--map',
      'question=problem,answer=solution',
      '--offset',
      '5',
      '--limit',
      '4',
      '--pool',
      'pool.json',
      '--method',
      'single:good',
      '--out',
      'out',
    );
    expect(r.code, r.err).toBe(0);
    expect(
      episodesOf('out')
        .map((e) => [e.task.itemId, e.task.answer])
        .sort(),
    ).toEqual([
      ['6', '70'],
      ['7', '88'],
      ['8', '108'],
      ['9', '130'],
    ]);
  });
});

describe('baton eval on the built-in sets', () => {
  it('reads MMLU by subject', async () => {
    newDir();
    write('pool.json', JSON.stringify(POOL));
    const mmlu = await baton(
      '--dataset',
      'mmlu',
      '--subjects',
      'anatomy,virology',
      '--limit',
      '3',
      '--offset',
      '134',
      '--pool',
      'pool.json',
      '--method',
      'single:good',
      '--out',
      'm',
    );
    expect(mmlu.code, mmlu.err).toBe(0);
    const tasks = episodesOf('m').map((e) => e.task);
    // anatomy has 135 questions: the window takes its last and virology's first two.
    expect(tasks.map((t) => t.itemId).sort()).toEqual(['anatomy/134', 'virology/0', 'virology/1']);
    expect(tasks.every((t) => t.kind === 'mcq' && /^[ABCD]$/.test(t.answer!))).toBe(true);
    expect((await baton('--dataset', 'mmlu', '--subjects', 'astrology', '--pool', 'pool.json', '--method', 'single:good', '--out', 'x')).err).toMatch(
      /no MMLU subject astrology/,
    );
  });

  it('grades HumanEval by running the answers in the Python sandbox', async () => {
    newDir();
    const server = await startFakeProviderServer();
    try {
      // HumanEval/0's canonical solution from one worker, a wrong body from the other (first calls in flight at once).
      const solution = JSON.parse(readGzippedData('humaneval/HumanEval.jsonl.gz').split('\n')[0]) as { prompt: string; canonical_solution: string };
      server.scriptModel('right', { text: `\`\`\`python\n${solution.prompt}${solution.canonical_solution}\`\`\`` });
      server.scriptModel('wrong', { text: '```python\ndef has_close_elements(numbers, threshold):\n    return False\n```' });
      const worker = (id: string): WorkerSpec => ({
        id,
        provider: 'openai-compatible',
        model: id,
        baseUrl: `${server.url}/v1`,
        price: { input: 1, output: 1 },
      });
      write('pool.json', JSON.stringify([worker('right'), worker('wrong')]));
      const r = await baton(
        '--dataset',
        'humaneval',
        '--limit',
        '1',
        '--pool',
        'pool.json',
        '--method',
        'single:right',
        '--method',
        'single:wrong',
        '--out',
        'h',
      );
      expect(r.code, r.err).toBe(0);
      const report = JSON.parse(read('h/report.json')) as EvalReport;
      expect(report.methods.map((m) => [m.method, m.graded, m.accuracy])).toEqual([
        ['single:right', 1, 1],
        ['single:wrong', 1, 0],
      ]);
      const wrong = episodesOf('h').find((e) => e.tags.includes('method:single:wrong'))!;
      expect(wrong.task).toMatchObject({ kind: 'code', itemId: 'HumanEval/0' });
      expect(JSON.stringify(wrong.reward!.details)).toMatch(/AssertionError/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('baton eval on a Hub dataset', () => {
  let hub: FakeDatasetsServer;
  beforeAll(async () => {
    hub = await startFakeDatasetsServer({ 'me/sums': { configs: { main: { test: ROWS.map((r) => ({ question: r.q, answer: String(r.a) })) } } } });
  });
  afterAll(() => hub.close());

  it('pages through the datasets server with progress, and reads its cache the second time', async () => {
    newDir();
    write('pool.json', JSON.stringify(POOL));
    const args = [
      '--dataset',
      'hf:me/sums',
      '--kind',
      'number',
      '--limit',
      '25',
      '--pool',
      'pool.json',
      '--method',
      'single:poor',
      '--hf-endpoint',
      hub.url,
      '--cache-dir',
      'cache',
    ];
    const first = await baton(...args, '--out', 'a');
    expect(first.code, first.err).toBe(0);
    expect(first.err).toContain('reading hf:me/sums: 25/25 rows\n');
    const requests = hub.requests.length;
    expect(hub.requests.filter((r) => r.path === '/rows').map((r) => r.query.length)).toEqual(['25']);
    expect(episodesOf('a')[0].task.dataset).toBe('me/sums:main:test');
    expect(new Set(episodesOf('a').map((e) => e.task.itemId))).toEqual(new Set(Array.from({ length: 25 }, (_, i) => String(i + 1))));
    const second = await baton(...args, '--out', 'b');
    expect(second.code, second.err).toBe(0);
    expect(hub.requests).toHaveLength(requests);
    expect(episodesOf('b')).toHaveLength(25);
  });

  it('frees OUT when Ctrl-C ends a resume still reading the data set', async () => {
    newDir();
    write('pool.json', JSON.stringify(POOL));
    const first = await baton(
      '--dataset',
      'hf:me/sums',
      '--kind',
      'number',
      '--limit',
      '3',
      '--pool',
      'pool.json',
      '--method',
      'single:poor',
      '--hf-endpoint',
      hub.url,
      '--cache-dir',
      'cache',
      '--out',
      'out',
    );
    expect(first.code, first.err).toBe(0);
    const asked = hub.requests.length;
    hub.delayMs = 30_000;
    try {
      // Another cache: the resume reads the pages again, from a server that is slow to answer.
      const child = spawn(process.execPath, [resolve('bin/baton.js'), 'eval', '--out', 'out', '--resume', '--cache-dir', 'other-cache'], {
        cwd: dir,
        stdio: 'ignore',
      });
      await new Promise<void>((done) => {
        const poll = setInterval(() => hub.requests.length > asked && (clearInterval(poll), done()), 10);
      });
      expect(read('out/eval.lock')).toBe(`${child.pid}\n`);
      child.kill('SIGINT');
      expect(await new Promise((done) => child.once('exit', done))).toBe(130);
      expect(existsSync(join(dir, 'out', 'eval.lock'))).toBe(false);
    } finally {
      hub.delayMs = 0;
    }
  }, 30_000);
});

describe('baton eval killed and resumed', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeProviderServer({ fallback: { text: 'So it is <answer>42</answer>', firstByteDelayMs: 120, usage: { input: 50, output: 10 } } });
  });
  afterAll(() => server.close());

  it('finishes after a kill without making any finished call again', async () => {
    newDir();
    const workers: WorkerSpec[] = ['alpha', 'beta'].map((m) => ({
      id: m,
      provider: 'openai-compatible',
      model: m,
      baseUrl: `${server.url}/v1`,
      price: { input: 1, output: 1 },
    }));
    write('pool.json', JSON.stringify({ workers }));
    write(
      'plan.txt',
      'model_id = [1, 0]\nsubtasks = ["Draft an answer in <answer></answer> tags.", "Check the draft; answer in <answer></answer> tags."]\naccess_list = [[], "all"]\n',
    );
    write(
      'set.jsonl',
      ROWS.slice(0, 12)
        .map((r) => JSON.stringify({ question: r.q, answer: '42', id: r.key }))
        .join('\n'),
    );
    const args = [
      'eval',
      '--dataset',
      'set.jsonl',
      '--kind',
      'number',
      '--pool',
      'pool.json',
      '--method',
      'single:alpha',
      '--method',
      'fixed:plan.txt',
      '--concurrency',
      '3',
      '--out',
      'out',
    ];
    // Every run's calls: 12 items x (1 + 2).
    const needed = 12 * 3;

    const child = spawn(process.execPath, [resolve('bin/baton.js'), ...args], { cwd: dir, stdio: 'ignore' });
    const concurrent = recordingIo(dir);
    let concurrentCode: number | undefined;
    const lines = (f: string) => (existsSync(join(dir, 'out', f)) ? read(`out/${f}`).split('\n').filter(Boolean).length : 0);
    await new Promise<void>((done, fail) => {
      const poll = setInterval(() => {
        if (lines('episodes.jsonl') >= 4) {
          clearInterval(poll);
          // A second process on the same OUT while the first runs: refused before it reads or calls anything.
          void main(['eval', '--out', 'out', '--resume'], concurrent).then((code) => {
            concurrentCode = code;
            child.kill('SIGKILL');
            done();
          });
        }
      }, 10);
      child.once('exit', () => {
        clearInterval(poll);
        fail(new Error('baton eval ended before it was killed'));
      });
    });
    await new Promise((done) => child.once('exit', done));
    await server.settled();
    expect(concurrentCode).toBe(1);
    expect(concurrent.err).toBe(
      `baton eval: ${join(dir, 'out')} is in use by another baton eval (pid ${child.pid}); wait for it to finish or stop it, then --resume\n`,
    );
    expect(read('out/eval.lock')).toBe(`${child.pid}\n`);
    const killedAt = lines('episodes.jsonl');
    expect(killedAt).toBeLessThan(24);
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
    // What the killed run had logged whole; a call answered but not yet logged when it died is the only kind asked again.
    const logged = read('out/calls.jsonl').split('\n').slice(0, -1).length;
    expect(logged).toBeGreaterThan(killedAt);
    const before = server.requests.length;

    const io = recordingIo(dir);
    const code = await main(['eval', '--out', 'out', '--resume'], io);
    expect(code, io.err).toBe(0);
    expect(io.err).toMatch(new RegExp(`^taking over ${join(dir, 'out', 'eval.lock')}: its baton eval \\(pid ${child.pid}\\) is no longer running\n`));
    expect(existsSync(join(dir, 'out', 'eval.lock'))).toBe(false);
    await server.settled();
    expect(server.requests.length - before).toBe(needed - logged);
    const completed = new Set(server.requests.filter((r) => r.outcome === 'completed').map((r) => JSON.stringify([r.model, r.body.messages])));
    expect(completed.size).toBe(needed);
    expect(lines('calls.jsonl')).toBe(needed);
    const report = JSON.parse(read('out/report.json')) as EvalReport;
    expect(report.methods.map((m) => [m.method, m.runs, m.accuracy])).toEqual([
      ['single:alpha', 12, 1],
      ['fixed:plan.txt', 12, 1],
    ]);
    expect(episodesOf('out')).toHaveLength(24);
  }, 60_000);

  it('frees OUT at Ctrl-C; --resume refuses flags it cannot change and a data set that changed', async () => {
    newDir();
    const workers: WorkerSpec[] = [{ id: 'alpha', provider: 'openai-compatible', model: 'alpha', baseUrl: `${server.url}/v1`, price: { input: 1, output: 1 } }];
    write('pool.json', JSON.stringify(workers));
    const rows = ROWS.slice(0, 8).map((r) => JSON.stringify({ question: r.q, answer: '42', id: r.key }));
    write('set.jsonl', rows.join('\n'));
    const child = spawn(
      process.execPath,
      [
        resolve('bin/baton.js'),
        'eval',
        '--dataset',
        'set.jsonl',
        '--kind',
        'number',
        '--pool',
        'pool.json',
        '--method',
        'single:alpha',
        '--concurrency',
        '1',
        '--out',
        'out',
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    const poll = setInterval(() => {
      if (existsSync(join(dir, 'out', 'episodes.jsonl'))) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 10);
    const exitCode = await new Promise((done) => child.once('exit', done));
    clearInterval(poll);
    await server.settled();
    expect(exitCode).toBe(130);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['calls.jsonl', 'episodes.jsonl', 'eval.json', 'plot.svg', 'report.json', 'report.md']);

    const flags = await baton('--out', 'out', '--resume', '--seed', '99', '--repeats', '5', '--method', 'single:beta', '--budget', '1');
    expect(flags).toMatchObject({
      code: 2,
      err: `baton eval: --resume runs the evaluation as ${join(dir, 'out', 'eval.json')} has it; only --budget and --concurrency can change, not --seed, --repeats, --method (for other settings start a new evaluation with another --out)\n`,
    });
    const changed =
      'baton eval: --resume: the items of set.jsonl changed since this evaluation started (rows added, removed or edited: a question, answer, kind or id); its runs would not match them. Restore the data, or start a new evaluation with another --out.\n';
    write('set.jsonl', [...rows, JSON.stringify({ question: 'one more?', answer: '42', id: 'more' })].join('\n'));
    expect(await baton('--out', 'out', '--resume')).toMatchObject({ code: 1, err: changed });
    write('set.jsonl', [rows[0].replace('"42"', '"43"'), ...rows.slice(1)].join('\n'));
    expect(await baton('--out', 'out', '--resume')).toMatchObject({ code: 1, err: changed });
    expect(existsSync(join(dir, 'out', 'eval.lock'))).toBe(false);

    // An eval.json written before items were hashed still resumes.
    const settings = JSON.parse(read('out/eval.json')) as Record<string, unknown>;
    expect(settings.itemsHash).toMatch(/^[0-9a-f]{64}$/);
    delete settings.itemsHash;
    write('out/eval.json', JSON.stringify(settings));
    write('set.jsonl', rows.join('\n'));
    const resumed = await baton('--out', 'out', '--resume', '--concurrency', '4');
    expect(resumed.code, resumed.err).toBe(0);
    expect(episodesOf('out')).toHaveLength(8);
  }, 60_000);
});
