/**
 * Code grading's costs under Node: the sandbox's cold start (worker thread + Pyodide), the time per
 * HumanEval task (all 164 canonical solutions, graded through gradeTask) and per stdin/stdout test, and
 * what a time-limit kill costs the next job (a fresh thread).
 * Run: npx tsx bench/sandbox.ts   Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { loadHumanEval } from '../src/core/bench/index.ts';
import { gradeCode, gradeTask } from '../src/core/reward/index.ts';
import { createNodeCodeRunner } from '../src/node/sandbox/index.ts';

const round = (x: number) => Math.round(x);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

const text = gunzipSync(readFileSync(new URL('../data/humaneval/HumanEval.jsonl.gz', import.meta.url))).toString('utf8');
const solutions = text
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { canonical_solution: string }).canonical_solution);
const tasks = loadHumanEval(text);

const runner = createNodeCodeRunner();
const cold = await timed(() => runner.run({ code: 'pass', timeoutMs: 60_000 }));

const humaneval: number[] = [];
let correct = 0;
for (const [i, task] of tasks.entries()) {
  const { ms, value } = await timed(() => gradeTask(solutions[i], task, { codeRunner: runner }));
  humaneval.push(ms);
  if (value.correct) correct++;
}

const stdio = JSON.stringify({ tests: Array.from({ length: 20 }, (_, i) => ({ input: `${i} ${i + 1}\n`, output: `${2 * i + 1}\n` })) });
const stdioRun = await timed(() => gradeCode('a, b = map(int, input().split())\nprint(a + b)', stdio, runner));

const kill = await timed(() => runner.run({ code: 'while True: pass', timeoutMs: 1000 }));
const afterKill = await timed(() => runner.run({ code: 'print(1)', timeoutMs: 60_000 }));
await runner.close();

console.log(
  JSON.stringify({
    coldStartMs: round(cold.ms),
    humaneval: {
      tasks: tasks.length,
      correct,
      medianMs: round(median(humaneval)),
      p95Ms: round(p95(humaneval)),
      totalMs: round(humaneval.reduce((a, b) => a + b, 0)),
    },
    stdio: { tests: 20, passed: stdioRun.value.correct, perTestMs: Number((stdioRun.ms / 20).toFixed(1)) },
    timeLimitKill: { limitMs: 1000, tookMs: round(kill.ms), status: kill.value.status, nextJobMs: round(afterKill.ms) },
  }),
);
