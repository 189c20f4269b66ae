/**
 * Code grading in Chromium: the client's runner over the sandbox web worker, built with the app's Vite
 * config (Pyodide's files served by the app itself, nothing else reachable) and under the app's
 * Content-Security-Policy. A right answer passes; an infinite loop is killed at its time limit and the
 * next answer is graded by a fresh worker; a memory bomb stops at the cap; a socket cannot connect.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CodeGradeResult } from '../../src/core/reward/index.ts';
import { launchBrowser, type BrowserSession } from '../support/browser.ts';

const root = resolve(import.meta.dirname, '../..');
const GOLD = JSON.stringify({ test: 'def check(candidate):\n    assert candidate(2, 3) == 5\n', entry_point: 'add' });

let outDir = '';
let server: PreviewServer | undefined;
let browser: BrowserSession | undefined;
let url = '';

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'baton-sandbox-e2e-'));
  const csp = /<meta\s+http-equiv="Content-Security-Policy"[\s\S]*?\/>/.exec(await readFile(join(root, 'index.html'), 'utf8'))![0];
  await build({
    configFile: join(root, 'vite.config.ts'),
    root: join(import.meta.dirname, 'sandbox-fixture'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false },
    plugins: [{ name: 'app-csp', transformIndexHtml: (html) => html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n${csp}`) }],
  });
  server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: true } });
  url = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  await browser.context.route('**/*', (route) => (route.request().url().startsWith(url) ? route.continue() : route.abort('internetdisconnected')));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

test('grades a right answer, kills an infinite loop at its time limit, then grades again in a fresh worker, within the limits', async () => {
  const page = await browser!.context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${url}/index.html`);
  const grade = (response: string, timeoutMs: number) =>
    page.evaluate(([r, g, t]) => window.gradeCode(r, g, t), [response, GOLD, timeoutMs] as const) as Promise<CodeGradeResult>;

  const right = await grade('```python\ndef add(a, b):\n    return a + b\n```', 10_000);
  expect(right, errors.join('\n')).toMatchObject({ correct: true, reason: 'check(add) passed' });

  const started = Date.now();
  const loop = await grade('def add(a, b):\n    while True:\n        pass', 2_000);
  expect(loop).toMatchObject({ correct: false, failure: 'timeout', reason: 'Killed after the time limit of 2 s.' });
  expect(Date.now() - started).toBeLessThan(6_000);

  expect(await grade('def add(a, b):\n    return a - b', 10_000)).toMatchObject({ correct: false, failure: 'exception' });
  // The memory cap and the cut socket layer hold in the browser's WebAssembly too.
  expect(await grade('l = []\nwhile True:\n    l.append([0] * 10**6)', 30_000)).toMatchObject({ correct: false, failure: 'memory' });
  expect(await grade('import socket\nsocket.create_connection(("127.0.0.1", 80))', 10_000)).toMatchObject({
    reason: 'PermissionError: [Errno 2] Permission denied at `socket.create_connection(("127.0.0.1", 80))`',
  });
  // The JavaScript-level cuts hold in the web worker: a program that gets Pyodide's core through importlib
  // (no audit event) reaches a JavaScript object whose constructor's constructor no longer compiles code.
  const escape = `import importlib, sys\nsys.modules.pop("_pyodide_core")\ncore = importlib.import_module("_pyodide_core")\ncore.to_js([]).constructor.constructor("return fetch('${url}/escaped')")()()`;
  expect(await grade(escape, 10_000)).toMatchObject({
    correct: false,
    reason: expect.stringContaining('compiling code (a function constructor) is disabled in the Python sandbox'),
  });
  expect(await grade('import sys\nsys.modules.pop("js")\nimport js', 10_000)).toMatchObject({ reason: expect.stringContaining('does not allow importing js') });
  // File descriptor 0 is the test's input, and output keeps its order.
  const stdio = JSON.stringify({ tests: [{ input: '2 3\n', output: 'a\nb\n5' }] });
  const sum = 'import os\nprint("a")\nos.write(1, b"b\\n")\na, b = map(int, open(0).read().split())\nprint(a + b)';
  expect(await page.evaluate(([r, g]) => window.gradeCode(r, g, 10_000), [sum, stdio] as const)).toMatchObject({ correct: true });
  expect(requests.every((r) => r.startsWith(url) || r.startsWith('blob:'))).toBe(true);
  expect(requests.some((r) => r.endsWith('/escaped'))).toBe(false);
  expect(requests.some((r) => r.endsWith('/pyodide/pyodide.asm.wasm'))).toBe(true);
  expect(errors).toEqual([]);
});
