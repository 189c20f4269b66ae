/**
 * KillableCodeRunner's scheduling over real Node worker threads running a few lines of JavaScript instead
 * of Python (Python's own runs are tested in test/unit/node/sandbox/node-code-runner.test.ts): threads reused after
 * normal runs, killed and replaced at the time limit, a thread that cannot start reported as a crash,
 * jobs beyond the thread count waiting their turn.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { KillableCodeRunner, type PythonRun, type SandboxThread } from '../../../../../src/core/reward/index.ts';

// `code` is a command: "hang" spins forever, "sleep N" blocks N ms; the reply says when the thread ran it.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.failStart) throw new Error('no interpreter here');
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (job) => {
  const started = Date.now();
  if (job.code === 'hang') for (;;);
  const sleep = /^sleep (\\d+)$/.exec(job.code);
  if (sleep) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(sleep[1]));
  parentPort.postMessage({ type: 'done', run: { status: 'ok', stdout: JSON.stringify({ started, ended: Date.now() }), stderr: '', exitCode: 0 } });
});
`;

let spawned: Worker[] = [];

function spawnThread(failStart = false): SandboxThread {
  const worker = new Worker(THREAD, { eval: true, workerData: { failStart } });
  spawned.push(worker);
  let pending: ((run: PythonRun) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { type: string; run: PythonRun }) => (m.type === 'ready' ? resolve() : pending?.(m.run)));
    worker.on('error', reject);
  });
  ready.catch(() => {});
  return { ready, run: (job) => new Promise((resolve) => ((pending = resolve), worker.postMessage(job))), terminate: () => void worker.terminate() };
}

const alive = () => spawned.filter((w) => w.threadId !== -1).length;
const times = (run: PythonRun) => JSON.parse(run.stdout) as { started: number; ended: number };

afterEach(async () => {
  await Promise.all(spawned.map((w) => w.terminate()));
  spawned = [];
});

describe('KillableCodeRunner', () => {
  it('keeps a thread across normal runs', async () => {
    const runner = new KillableCodeRunner({ spawn: () => spawnThread() });
    for (let i = 0; i < 3; i++) expect((await runner.run({ code: 'sleep 1', timeoutMs: 5000 })).status).toBe('ok');
    expect(spawned).toHaveLength(1);
    await runner.close();
  });

  it('kills a thread at the time limit and has a fresh one loading for the next run', async () => {
    const runner = new KillableCodeRunner({ spawn: () => spawnThread() });
    const started = Date.now();
    expect(await runner.run({ code: 'hang', timeoutMs: 300 })).toMatchObject({ status: 'timeout', error: 'Killed after the time limit of 0.3 s.' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(spawned).toHaveLength(2);
    await expect.poll(alive).toBe(1); // the hung thread is gone, its replacement is up
    expect((await runner.run({ code: 'sleep 1', timeoutMs: 5000 })).status).toBe('ok');
    expect(spawned).toHaveLength(2);
    await runner.close();
    await expect.poll(alive).toBe(0);
  });

  it('reports a thread that cannot start as a crash, and starts another for the next run', async () => {
    let spawns = 0;
    const runner = new KillableCodeRunner({ spawn: () => spawnThread(spawns++ === 0) });
    expect(await runner.run({ code: 'sleep 1', timeoutMs: 5000 })).toMatchObject({
      status: 'crash',
      error: 'The Python sandbox did not start: no interpreter here',
    });
    expect((await runner.run({ code: 'sleep 1', timeoutMs: 5000 })).status).toBe('ok');
    await runner.close();
  });

  it('runs as many jobs at once as it has threads; the rest wait', async () => {
    for (const threads of [1, 2]) {
      const runner = new KillableCodeRunner({ spawn: () => spawnThread(), threads });
      const [a, b] = (await Promise.all([runner.run({ code: 'sleep 300', timeoutMs: 10_000 }), runner.run({ code: 'sleep 300', timeoutMs: 10_000 })])).map(
        times,
      );
      const overlapped = Math.max(a.started, b.started) < Math.min(a.ended, b.ended);
      expect(overlapped, `threads: ${threads}`).toBe(threads === 2);
      await runner.close();
    }
  });

  it('leaves no thread behind when closed during a run', async () => {
    const runner = new KillableCodeRunner({ spawn: () => spawnThread() });
    const hung = runner.run({ code: 'hang', timeoutMs: 1000 });
    await new Promise((done) => setTimeout(done, 200));
    await runner.close();
    expect((await hung).status).toBe('timeout');
    expect(spawned).toHaveLength(1);
    await expect.poll(alive).toBe(0);
  });
});
