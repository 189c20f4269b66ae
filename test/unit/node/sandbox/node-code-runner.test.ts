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
import { loadHumanEval } from '../../../../src/core/bench/index.ts';
import { createFixedConductor, runEpisode } from '../../../../src/core/orchestra/index.ts';
import { loadProviders } from '../../../../src/core/providers/index.ts';
import { canGradeTask, gradeCode, gradeTask } from '../../../../src/core/reward/index.ts';
import { renderWorkflow } from '../../../../src/core/workflow/index.ts';
import { createNodeCodeRunner } from '../../../../src/node/sandbox/node-code-runner.ts';
import { readGzippedData } from '../../../support/data.ts';
import { startFakeProviderServer } from '../../../support/fake-provider-server.ts';

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
      jsFetch: 'PermissionError',
      pyodideHttp: 'PermissionError',
      pyodideJs: 'PermissionError',
      ctypesEval: 'PermissionError',
    });
    await new Promise((done) => setTimeout(done, 200)); // a connection opened asynchronously would land by now
    expect(connections).toBe(0);
  }, 60_000);

  it('stays cut off when a program undoes the module blocks: the import is refused', async () => {
    const pyodideJs = await runner.run({ code: 'import sys\ndel sys.modules["pyodide_js"]\nimport pyodide_js', timeoutMs: 10_000 });
    expect(pyodideJs.exception).toMatchObject({ type: 'PermissionError', message: 'the Python sandbox does not allow importing pyodide_js' });
    const js = await runner.run({ code: 'import sys\ndel sys.modules["js"]\nimport js\njs.fetch', timeoutMs: 10_000 });
    expect(js.exception).toMatchObject({ type: 'PermissionError', message: 'the Python sandbox does not allow importing js' });
    const ctypesEval = await runner.run({
      code: `import sys\ndel sys.modules["ctypes"], sys.modules["_ctypes"]\nimport ctypes\nctypes.CDLL(None).emscripten_run_script(b"fetch('http://127.0.0.1:${port}/')")`,
      timeoutMs: 10_000,
    });
    expect(ctypesEval.exception).toMatchObject({ type: 'PermissionError', message: 'the Python sandbox does not allow importing ctypes' });
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
    expect(await printed(code)).toBe("/etc/passwd False\n/etc/hostname False\n/root False\n['dev', 'home', 'lib', 'proc', 'tmp']\n[]\nFalse\n");
    const read = await runner.run({ code: "open('/etc/passwd').read()", timeoutMs: 10_000 });
    expect(read.exception).toMatchObject({ type: 'FileNotFoundError', line: "open('/etc/passwd').read()" });
  });

  it('starts no host process: os.system finds no shell, even with ctypes unblocked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-sandbox-'));
    const marker = join(dir, 'ran');
    expect(await printed(`import os\nprint(os.system("touch ${marker}"))`)).toBe(`${127 << 8}\n`);
    const viaCtypes = `import sys\ndel sys.modules["ctypes"], sys.modules["_ctypes"]\nimport ctypes\nprint(ctypes.CDLL(None).system(b"touch ${marker}"))`;
    expect((await runner.run({ code: viaCtypes, timeoutMs: 10_000 })).exception?.type).toBe('PermissionError');
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
      expect(await gradeCode(hack, ADD, runner), hack).toMatchObject({
        correct: false,
        failure: 'exit',
        reason: 'exited (status 0) before check(add) finished',
      });
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
    await printed(
      'import builtins, sys, json\nbuiltins.print = None\nsys.modules["json"] = None\njson.dumps = None\nsys.setrecursionlimit(50)\nimport fractions',
    );
    expect(await printed('import json, sys\nprint(json.dumps([1]), sys.getrecursionlimit() > 50, "fractions" in sys.modules)')).toBe('[1] True False\n');
  });

  it("escapes to the host by no route: the reviewer's attack, `js` and ctypes after popping their blocks, walks to Pyodide's own functions", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-escape-'));
    const marker = join(dir, 'PWNED');
    const write = `process.getBuiltinModule("fs").writeFileSync("${marker}", "host write")`;
    const connect = `require("net").connect(${port}, "127.0.0.1")`;
    const reviewer = `import sys\ndef add(a, b):\n    return a + b\nsys.modules.pop("_pyodide_core", None)\nimport _pyodide_core\n_pyodide_core.to_js([]).constructor.constructor('${write}')()`;
    expect(await gradeCode(reviewer, ADD, runner)).toMatchObject({
      correct: false,
      reason: expect.stringMatching(/^PermissionError: the Python sandbox does not allow importing _pyodide_core/),
    });
    const walk = [
      'found = []',
      'todo, seen = list(object.__subclasses__()), set()',
      'while todo:',
      '    c = todo.pop()',
      '    if id(c) in seen: continue',
      '    seen.add(id(c)); todo.extend(type.__subclasses__(c))',
      '    for v in list(vars(c).values()):',
      '        f = getattr(v, "__func__", v)',
      '        for name, g in getattr(f, "__globals__", {}).items():',
      '            if callable(g) and name in ("to_js", "create_proxy", "run_js", "create_once_callable"): found.append(g)',
      'for f in found:',
      '    for arg in ([], {}, print):',
      '        try:',
      `            f(arg).constructor.constructor('${write}')()`,
      '            print("escaped")',
      '        except Exception:',
      '            pass',
      'print(len(found) > 0)',
    ].join('\n');
    const attempts = [
      `import sys\nsys.modules.pop("js", None)\nimport js\njs.require("fs").writeFileSync("${marker}", "x")`,
      `import sys\nsys.modules.pop("js", None)\nimport js\njs.process.getBuiltinModule("fs").writeFileSync("${marker}", "x")`,
      `import sys\nfor m in ("ctypes", "_ctypes"): sys.modules.pop(m, None)\nimport ctypes\nctypes.CDLL(None).emscripten_run_script(b'${write}; ${connect}')`,
      `import sys\nsys.modules.pop("pyodide_js", None)\nimport pyodide_js\npyodide_js.mountNodeFS("/host", "${dir}")`,
      `import sys\nsys.modules.pop("_pyodide", None)\nfrom _pyodide import _base`,
    ];
    for (const code of attempts) {
      const run = await runner.run({ code, timeoutMs: 10_000 });
      expect(run.exception?.type, `${code}\n${JSON.stringify(run)}`).toBe('PermissionError');
    }
    // importlib.import_module raises no audit event, so it gets _pyodide_core: the JavaScript-level cuts hold.
    const core = 'import importlib, sys\nsys.modules.pop("_pyodide_core"), sys.modules.pop("js")\ncore = importlib.import_module("_pyodide_core")';
    const viaCore = {
      Function: `core.to_js([]).constructor.constructor('${write}')()`,
      proxy: `core.create_proxy(print).constructor.constructor('${write}')()`,
      map: `core.to_js({}).constructor.constructor.constructor('${connect}')()`,
      js: 'importlib.import_module("js")',
      // A JavaScript function Pyodide's event loop holds, reached through its class's methods.
      webloop: [
        'loops = [c for c in object.__subclasses__() if c.__module__ == "asyncio.events"]',
        'todo = [k for c in loops for k in type.__subclasses__(c)]',
        'found = [g["scheduleCallback"] for c in todo for v in vars(c).values() for g in [getattr(v, "__globals__", {})] if "scheduleCallback" in g]',
        `found[0].constructor('${write}')()`,
      ].join('\n'),
    };
    const refusals: Record<string, string | undefined> = {};
    for (const [name, line] of Object.entries(viaCore)) refusals[name] = (await runner.run({ code: `${core}\n${line}`, timeoutMs: 10_000 })).exception?.message;
    const compile = 'Error: compiling code (a function constructor) is disabled in the Python sandbox';
    expect(refusals).toEqual({ Function: compile, proxy: compile, map: compile, js: "No module named 'js'", webloop: compile });
    // The walk finds Pyodide's Python-side functions, but none of them hands out a way into JavaScript.
    expect(await printed(walk)).not.toContain('escaped');
    await new Promise((done) => setTimeout(done, 200));
    expect(existsSync(marker)).toBe(false);
    expect(connections).toBe(0);
    rmSync(dir, { recursive: true });
  }, 60_000);

  it('gives the program its input on file descriptor 0 and keeps the order of its output', async () => {
    const sum = JSON.stringify({
      tests: [
        { input: '2 3\n', output: '5' },
        { input: '10 20\n', output: '30' },
      ],
    });
    expect(await gradeCode('a, b = map(int, open(0).read().split()); print(a + b)', sum, runner)).toMatchObject({ correct: true });
    expect(await gradeCode('import os\na, b = map(int, os.read(0, 1000).split()); print(a + b)', sum, runner)).toMatchObject({ correct: true });
    expect(await gradeCode('import sys\nprint(sum(map(int, sys.stdin.buffer.read().split())))', sum, runner)).toMatchObject({ correct: true });
    expect(await printed('import os, sys\nprint("a")\nos.write(1, b"b\\n")\nsys.stdout.write("c")\nos.write(1, b"d\\n")')).toBe('a\nb\ncd\n');
    const stderr = await runner.run({ code: 'import os, sys\nprint("x", file=sys.stderr)\nos.write(2, b"y\\n")', timeoutMs: 10_000 });
    expect(stderr.stderr).toBe('x\ny\n');
    // A program that closes its descriptors leaves the next one its own.
    await runner.run({ code: 'import os\nos.close(0)\nos.close(1)', timeoutMs: 10_000 });
    expect((await runner.run({ code: 'import os\nprint(os.read(0, 10))', stdin: 'in', timeoutMs: 10_000 })).stdout).toBe("b'in'\n");
  }, 60_000);

  it('starts every program from the same state, whatever the one before it did', async () => {
    const tamper = [
      'import os, sys, json, warnings',
      'os.chdir("/tmp")',
      'os.environ["LEAK"] = "1"',
      'open("/tmp/leaked.py", "w").write("X = 1")',
      'os.makedirs(os.path.expanduser("~/pkg"))',
      'sys.path.append("/tmp")',
      'warnings.filters.insert(0, ("error", None, Warning, None, 0))',
      'json.JSONEncoder.encode = lambda self, o: "null"',
      'json.JSONDecoder.leak = 1',
      'import decimal; decimal.getcontext().prec = 3',
      'sys.set_int_max_str_digits(640)',
    ].join('\n');
    await printed(tamper);
    const check = [
      'import os, sys, json, warnings',
      'print(os.getcwd(), os.listdir("/tmp"), os.listdir(os.path.expanduser("~")), "LEAK" in os.environ, "/tmp" in sys.path)',
      'print(json.dumps([1]), hasattr(json.JSONDecoder, "leak"), warnings.filters[0][0] == "error")',
      'try:\n    import leaked\nexcept ImportError:\n    print("no leaked module")',
      'import decimal; print(decimal.Decimal(1) / 7, len(str(10**1000)))',
    ].join('\n');
    expect(await printed(check)).toBe('/home/pyodide [] [] False False\n[1] False False\nno leaked module\n0.1428571428571428571428571429 1001\n');
    // Hooks that would run inside later programs, and rewriting shared functions, are refused outright.
    for (const hook of [
      'sys.settrace(lambda *a: None)',
      'sys.setprofile(lambda *a: None)',
      'import json; json.dumps.__code__ = (lambda *a, **k: "").__code__',
      'sys.monitoring.register_callback(1, 1, print)',
    ]) {
      const run = await runner.run({ code: `import sys\n${hook}`, timeoutMs: 10_000 });
      expect(run.exception?.type, hook).toBe('PermissionError');
    }
    expect(await printed('import sys\nprint(sys.gettrace(), sys.getprofile())')).toBe('None None\n');
    // Python drops a new audit hook silently when an existing one refuses it.
    expect(await printed('import sys\nsys.addaudithook(lambda *a: print("hooked"))\nimport fractions')).toBe('');
    expect(await printed('import fractions')).toBe('');
  }, 60_000);

  it("lets no program fake a later program's report through the driver", async () => {
    // The driver's functions are found through gc (refused) or a frame (its own, executed for this run only).
    const viaGc = 'import gc\nfor f in gc.get_objects():\n    if getattr(f, "__name__", "") == "run": f.__globals__["_exception"] = lambda e: ("ok", 0, False)';
    expect((await runner.run({ code: viaGc, timeoutMs: 10_000 })).exception?.type).toBe('PermissionError');
    const viaFrame = 'import sys\ng = sys._getframe(1).f_globals\ng["_exception"] = lambda e: ("ok", 0, False)\ng["traceback"] = None';
    await runner.run({ code: viaFrame, timeoutMs: 10_000 });
    expect(await gradeCode('def add(a, b):\n    return a - b', ADD, runner)).toMatchObject({
      correct: false,
      reason: 'a test failed: AssertionError at `assert candidate(2, 3) == 5`',
    });
    // Pyodide's own Python (which runs code for the host) is reached through object.__subclasses__ and
    // patched so that the next driver reports a pass, and builtins are patched to break the restore.
    const viaPyodide = [
      'import builtins',
      'todo, seen = list(object.__subclasses__()), set()',
      'while todo:',
      '    c = todo.pop()',
      '    if id(c) in seen: continue',
      '    seen.add(id(c)); todo.extend(type.__subclasses__(c))',
      '    if c.__name__ == "CodeRunner":',
      '        real = c.run',
      '        def run(self, globals=None, locals=None, real=real):',
      '            result = real(self, globals, locals)',
      '            if isinstance(globals, dict) and "run" in globals: globals["run"] = lambda *a: ("ok", 0, False)',
      '            return result',
      '        c.run = run',
      'real_import = builtins.__import__',
      'def fake_import(name, *a, **k):',
      '    module = real_import(name, *a, **k)',
      '    if name == "os": module.fstat = lambda fd: None',
      '    return module',
      'builtins.__import__ = fake_import',
    ].join('\n');
    await runner.run({ code: viaPyodide, timeoutMs: 10_000 });
    // A finalizer left in a garbage cycle, which a later program's collection would run.
    const finalizer =
      'class Later:\n    def __del__(self):\n        import json\n        json.dumps = lambda *a, **k: "faked"\nx = Later()\nx.cycle = x\ndel x';
    await printed(finalizer);
    expect(await printed('import gc, json\ngc.collect()\nprint(json.dumps(1))')).toBe('1\n');
    expect(await gradeCode('def add(a, b):\n    return a - b', ADD, runner)).toMatchObject({ correct: false, failure: 'exception' });
    expect(await printed('import os\nprint(os.fstat(0) is not None)')).toBe('True\n');
  }, 60_000);

  it("stops a program at the output limit and says so, and drops a fatal error's noise from stderr", async () => {
    const flood = await gradeCode('for _ in range(300):\n    print("x" * 2**20)', { kind: 'stdio', tests: [{ input: '', output: 'x' }] }, runner, {
      timeoutMs: 30_000,
    });
    expect(flood).toMatchObject({ correct: false, reason: 'test 1 of 1: OutputLimit: printed more than 16 MiB; the output was cut there' });
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      const bomb = await runner.run({ code: 'import sys\nsys.setrecursionlimit(10**6)\ndef f(): f()\nf()', timeoutMs: 30_000 });
      expect(bomb.status).not.toBe('ok');
    } finally {
      process.stderr.write = write;
    }
    expect(written).toEqual([]);
    expect(await printed('print("after")')).toBe('after\n');
  }, 90_000);

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
      server.script(
        { text: `\`\`\`python\n${task.question}${items[0].canonical_solution}\`\`\`` },
        { text: '```python\ndef has_close_elements(numbers, threshold):\n    return False\n```' },
        {},
      );
      const right = await episode({ codeRunner: runner });
      expect(right.reward).toMatchObject({ value: 1, correct: true, details: { reason: 'check(has_close_elements) passed' } });
      const wrong = await episode({ codeRunner: runner });
      expect(wrong.reward).toMatchObject({
        value: 0.5,
        correct: false,
        details: { failure: 'exception', reason: expect.stringMatching(/^a test failed: AssertionError/) },
      });
      expect((await episode()).reward).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
