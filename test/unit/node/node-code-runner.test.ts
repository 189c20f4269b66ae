/**
 * Code grading end to end under Node: Pyodide in a worker thread (one loaded interpreter shared by the
 * cases, as grading shares it), the time limit killing the thread, the memory cap, no network (a real
 * TCP server on 127.0.0.1 counts connection attempts), no host files, no host processes, and HumanEval's own canonical
 * solutions from data/.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHumanEval } from '../../../src/core/bench/index.ts';
import { createFixedConductor, runEpisode } from '../../../src/core/orchestra/index.ts';
import { loadProviders } from '../../../src/core/providers/index.ts';
import { canGradeTask, gradeCode, gradeTask } from '../../../src/core/reward/index.ts';
import { renderWorkflow } from '../../../src/core/workflow/index.ts';
import { createNodeCodeRunner } from '../../../src/node/node-code-runner.ts';
import { readGzippedData } from '../../support/data.ts';
import { startFakeProviderServer } from '../../support/fake-provider-server.ts';

const runner = createNodeCodeRunner({ memoryMb: 256 });
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.end('HTTP/1.0 200 OK\r\n\r\nhello');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  // Loads Python once; the cases below share the interpreter.
  expect((await runner.run({ code: 'pass', timeoutMs: 60_000 })).status).toBe('ok');
}, 90_000);
afterAll(async () => {
  await runner.close();
  await new Promise((done) => server.close(done));
});

const ADD = JSON.stringify({ test: 'def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n', entry_point: 'add' });

/** Runs `code` and returns what it printed, failing the test if it did not end normally. */
async function printed(code: string): Promise<string> {
  const run = await runner.run({ code, timeoutMs: 10_000 });
  expect(run, JSON.stringify(run)).toMatchObject({ status: 'ok', exitCode: 0 });
  return run.stdout;
}

const HUMANEVAL = readGzippedData('humaneval/HumanEval.jsonl.gz');
const items = HUMANEVAL.trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { task_id: string; canonical_solution: string });
const tasks = loadHumanEval(HUMANEVAL);

describe('grading Python in a Node worker thread', () => {
  it('passes a right answer in a python block and fails a wrong one on the assert it broke', async () => {
    const right = await gradeCode('Here:\n```python\ndef add(a, b):\n    return a + b\n```\n', ADD, runner);
    expect(right).toMatchObject({ correct: true, reason: 'check(add) passed', extracted: 'def add(a, b):\n    return a + b' });
    const wrong = await gradeCode('<answer>\ndef add(a, b):\n    return a - b\n</answer>', ADD, runner);
    expect(wrong).toMatchObject({ correct: false, failure: 'exception', reason: 'a test failed: AssertionError at `assert candidate(2, 3) == 5`' });
  });

  it('kills an infinite loop at the time limit, and the next job runs in a fresh thread', async () => {
    const started = performance.now();
    const loop = await gradeCode('def add(a, b):\n    while True:\n        pass', ADD, runner, { timeoutMs: 1500 });
    const took = performance.now() - started;
    expect(loop).toMatchObject({ correct: false, failure: 'timeout', reason: 'Killed after the time limit of 1.5 s.' });
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(5000);
    expect(await gradeCode('def add(a, b):\n    return a + b', ADD, runner)).toMatchObject({ correct: true });
  }, 60_000);

  it('stops memory bombs with the memory limit, and the next job still runs', async () => {
    const grow = await runner.run({ code: 'l = []\nwhile True:\n    l.append([0] * 10**6)', timeoutMs: 20_000 });
    expect(grow).toMatchObject({ status: 'memory', error: 'Stopped at the memory limit (MemoryError).' });
    const huge = await runner.run({ code: "x = 'a' * 10**10", timeoutMs: 20_000 });
    expect(huge.status).not.toBe('ok');
    expect(huge.exception?.type ?? huge.status).toMatch(/OverflowError|MemoryError|memory/);
    // The runner's limit is 256 MiB: 100 MiB fits, 300 MiB does not (without the cap it would).
    const cap = 'print(len(bytearray(100 * 2**20)))\ntry:\n    bytearray(300 * 2**20)\nexcept MemoryError:\n    print("refused")';
    expect(await printed(cap)).toBe(`${100 * 2 ** 20}\nrefused\n`);
  }, 60_000);

  it('reaches no network: sockets, urllib, js.fetch, pyodide.http, pyodide_js and ctypes all fail', async () => {
    const attempts = {
      socket: `import socket\nsocket.create_connection(('127.0.0.1', ${port}), timeout=2).recv(5)`,
      urllib: `import urllib.request\nurllib.request.urlopen('http://127.0.0.1:${port}/', timeout=2).read()`,
      jsFetch: 'from js import fetch\nfetch("http://127.0.0.1:1/")',
      pyodideHttp: 'from pyodide.http import pyfetch',
      pyodideJs: 'import pyodide_js\npyodide_js.mountNodeFS("/host", "/")',
      ctypesEval: 'import ctypes\nctypes.CDLL(None).emscripten_run_script(b"fetch(\'http://127.0.0.1:1/\')")',
    };
    const failures: Record<string, string | undefined> = {};
    for (const [name, code] of Object.entries(attempts)) {
      const run = await runner.run({ code, timeoutMs: 10_000 });
      failures[name] = run.exception?.type;
    }
    expect(failures).toEqual({
      socket: 'PermissionError',
      urllib: 'URLError',
      jsFetch: 'ModuleNotFoundError',
      pyodideHttp: 'ModuleNotFoundError',
      pyodideJs: 'ModuleNotFoundError',
      ctypesEval: 'ModuleNotFoundError',
    });
    await new Promise((done) => setTimeout(done, 200)); // a connection opened asynchronously would land by now
    expect(connections).toBe(0);
  }, 60_000);

  it('stays cut off when a program undoes the module blocks: nothing to import, or its thread crashes', async () => {
    const pyodideJs = await runner.run({ code: 'import sys\ndel sys.modules["pyodide_js"]\nimport pyodide_js', timeoutMs: 10_000 });
    expect(pyodideJs.exception).toMatchObject({ type: 'ModuleNotFoundError', message: "No module named 'pyodide_js'" });
    const js = await runner.run({ code: 'import sys\ndel sys.modules["js"]\nimport js\njs.fetch', timeoutMs: 10_000 });
    expect(js.exception).toMatchObject({ type: 'AttributeError', message: 'fetch' });
    const ctypesEval = await runner.run({
      code: `import sys\ndel sys.modules["ctypes"], sys.modules["_ctypes"]\nimport ctypes\nctypes.CDLL(None).emscripten_run_script(b"fetch('http://127.0.0.1:${port}/')")`,
      timeoutMs: 10_000,
    });
    expect(ctypesEval).toMatchObject({ status: 'crash', error: 'The Python interpreter failed: eval is disabled in the Python sandbox' });
    expect(await printed('print("next")')).toBe('next\n');
    expect(connections).toBe(0);
  }, 60_000);

  it('sees only its in-memory file system, never the host', async () => {
    const code = [
      'import os',
      'for path in ("/etc/passwd", "/etc/hostname", "/root"):',
      '    print(path, os.path.exists(path))',
      'print(sorted(os.listdir("/")))',
      'print(os.listdir("/tmp"))',
      'print(os.path.exists(os.getcwd() + "/package.json"))',
    ].join('\n');
    expect(await printed(code)).toBe(
      "/etc/passwd False\n/etc/hostname False\n/root False\n['dev', 'home', 'lib', 'proc', 'tmp']\n[]\nFalse\n",
    );
    const read = await runner.run({ code: "open('/etc/passwd').read()", timeoutMs: 10_000 });
    expect(read.exception).toMatchObject({ type: 'FileNotFoundError', line: "open('/etc/passwd').read()" });
  });

  it('starts no host process: os.system finds no shell, even with ctypes unblocked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-sandbox-'));
    const marker = join(dir, 'ran');
    expect(await printed(`import os\nprint(os.system("touch ${marker}"))`)).toBe(`${127 << 8}\n`);
    const viaCtypes = `import sys\ndel sys.modules["ctypes"], sys.modules["_ctypes"]\nimport ctypes\nprint(ctypes.CDLL(None).system(b"touch ${marker}"))`;
    expect(await printed(viaCtypes)).toBe(`${127 << 8}\n`);
    for (const spawn of ['os.posix_spawn("/bin/touch", ["touch", "M"], {})', 'os.fork()', 'import subprocess; subprocess.run(["touch", "M"])']) {
      const run = await runner.run({ code: `import os\n${spawn.replaceAll('M', marker)}`, timeoutMs: 10_000 });
      expect(run.exception?.type, JSON.stringify(run)).toMatch(/Error$/);
    }
    expect(existsSync(marker)).toBe(false);
    rmSync(dir, { recursive: true });
  }, 60_000);

  it('reports a syntax error, an uncaught exception and sys.exit as wrong, with the reason', async () => {
    const syntax = await gradeCode('def add(a, b)\n    return a + b', ADD, runner);
    expect(syntax).toMatchObject({ correct: false, failure: 'exception', reason: expect.stringMatching(/^SyntaxError: .* at `def add\(a, b\)`$/) });
    const raised = await gradeCode('def add(a, b):\n    return a + undefined_name', ADD, runner);
    expect(raised.reason).toBe("NameError: name 'undefined_name' is not defined at `return a + undefined_name`");
    const exited = await gradeCode('import sys\nsys.exit(3)', { kind: 'stdio', tests: [{ input: '', output: '' }] }, runner);
    expect(exited).toMatchObject({ correct: false, failure: 'exit', reason: 'test 1 of 1: exited with status 3', test: 1 });
    // A stdin/stdout program may end itself, os._exit included (competitive code does, to skip clean-up).
    for (const end of ['exit(0)', 'import os; os._exit(0)']) {
      expect((await gradeCode(`print(5)\n${end}\nprint(6)`, { kind: 'stdio', tests: [{ input: '', output: '5' }] }, runner)).correct, end).toBe(true);
    }
  });

  it('does not pass an answer that exits before the tests run (the sys.exit(0) reward hack)', async () => {
    for (const hack of ['import sys\nsys.exit(0)', 'def add(a, b):\n    return 0\nexit()', 'raise SystemExit', 'import os\nos._exit(0)']) {
      expect(await gradeCode(hack, ADD, runner), hack).toMatchObject({ correct: false, failure: 'exit', reason: 'exited (status 0) before check(add) finished' });
    }
  });

  it('grades stdin/stdout tests with trailing-whitespace tolerance, naming the test that failed', async () => {
    const gold = JSON.stringify({
      tests: [
        { input: '1 2\n', output: '3\n' },
        { input: '5 7\n', output: '12   \n\n' },
        { input: '10 -4\n', output: '6' },
      ],
    });
    const right = await gradeCode('```py\nimport sys\na, b = map(int, sys.stdin.buffer.read().split())\nprint(a + b, end="  \\n\\n")\n```', gold, runner);
    expect(right).toMatchObject({ correct: true, reason: '3 of 3 tests passed' });
    const wrong = await gradeCode('a, b = map(int, input().split())\nprint(a * b if a == 5 else a + b)', gold, runner);
    expect(wrong).toMatchObject({ correct: false, failure: 'wrong-output', test: 2, reason: 'test 2 of 3: expected "12", printed "35"' });
    const eof = await gradeCode('input()\ninput()', gold, runner);
    expect(eof).toMatchObject({ correct: false, test: 1, reason: 'test 1 of 3: EOFError: EOF when reading a line at `input()`' });
  });

  it("keeps one program's changes to the interpreter from the next", async () => {
    await printed('import builtins, sys, json\nbuiltins.print = None\nsys.modules["json"] = None\njson.dumps = None\nsys.setrecursionlimit(50)\nimport fractions');
    expect(await printed('import json, sys\nprint(json.dumps([1]), sys.getrecursionlimit() > 50, "fractions" in sys.modules)')).toBe('[1] True False\n');
  });

  it('grades HumanEval canonical solutions from data/ right, and a solution of another task wrong', async () => {
    expect(tasks).toHaveLength(164);
    for (const i of [0, 10, 32, 53, 163]) {
      const task = tasks[i];
      expect(canGradeTask(task, { codeRunner: runner })).toBe(true);
      // The canonical solution is a function body: the answer a completion model gives.
      const right = await gradeTask(items[i].canonical_solution, task, { codeRunner: runner });
      expect(right, `${task.itemId}: ${JSON.stringify(right.details)}`).toMatchObject({ correct: true });
      const full = await gradeTask(`\`\`\`python\n${task.question}${items[i].canonical_solution}\`\`\``, task, { codeRunner: runner });
      expect(full.correct, `${task.itemId} as a whole function`).toBe(true);
      const other = await gradeTask(items[(i + 1) % items.length].canonical_solution, task, { codeRunner: runner });
      expect(other.correct, `${task.itemId} with another task's solution`).toBe(false);
    }
    expect(canGradeTask(tasks[0])).toBe(false);
  }, 60_000);

  it("rewards a code task's episode in runEpisode when given the runner, and leaves it ungraded without one", async () => {
    const server = await startFakeProviderServer();
    try {
      const task = tasks[0];
      const { createWorkerModel } = await loadProviders();
      const worker = createWorkerModel({ id: 'coder', provider: 'openai-compatible', model: 'coder', baseUrl: `${server.url}/v1` }, { apiKey: 'k' });
      const plan = renderWorkflow({ steps: [{ worker: 0, subtask: 'Write the function.', access: [] }] });
      const episode = (options = {}) => runEpisode({ task, pool: [worker], conductor: createFixedConductor(plan), options });
      server.script({ text: `\`\`\`python\n${task.question}${items[0].canonical_solution}\`\`\`` }, { text: '```python\ndef has_close_elements(numbers, threshold):\n    return False\n```' }, {});
      const right = await episode({ codeRunner: runner });
      expect(right.reward).toMatchObject({ value: 1, correct: true, details: { reason: 'check(has_close_elements) passed' } });
      const wrong = await episode({ codeRunner: runner });
      expect(wrong.reward).toMatchObject({ value: 0.5, correct: false, details: { failure: 'exception', reason: expect.stringMatching(/^a test failed: AssertionError/) } });
      expect((await episode()).reward).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
