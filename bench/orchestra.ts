/**
 * Orchestration overhead and parallel speed-up against simulated workers of known latency.
 * Run: npx tsx bench/orchestra.ts   Prints one JSON line.
 *
 * - chain: workflows of 1-5 steps, each seeing all earlier ones (so strictly one after another). The
 *   critical path is the sum of the latencies the simulated workers planned; what the wall clock adds
 *   on top, divided by the steps, is the executor's overhead per step (timer lateness included).
 * - fanOut: 4 independent [] steps and an aggregator seeing "all", run as scheduled vs one after another.
 */
import { executeWorkflow, type WorkflowResult } from '../src/core/orchestra/index.ts';
import { createSimulatedWorker, planSimulatedCall } from '../src/core/providers/simulated/index.ts';
import type { WorkerModel, WorkerSpec } from '../src/core/providers/types.ts';
import type { Task } from '../src/core/task.ts';
import type { Workflow } from '../src/core/workflow/types.ts';

const LATENCY_MS = 50;
const TRIALS = 5;
const task: Task = { question: 'What is 12 * 12?', answer: '144', kind: 'number' };

const spec = (id: string, latencyMs: number): WorkerSpec => ({
  id,
  provider: 'simulated',
  model: id,
  simulated: { skill: { default: 0.8 }, latencyMs },
});

function plannedLatency(pool: WorkerModel[], result: WorkflowResult): number[] {
  return result.steps.map((s) => planSimulatedCall(pool[s.worker].spec, { messages: s.messages, task }).latencyMs);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

async function timed(workflow: Workflow, pool: WorkerModel[], sequential = false): Promise<{ wallMs: number; result: WorkflowResult }> {
  const start = performance.now();
  const result = await executeWorkflow(workflow, { task, pool, options: { sequential } });
  return { wallMs: performance.now() - start, result };
}

const chain = (n: number): Workflow => ({
  steps: Array.from({ length: n }, (_, i) => ({ worker: i % 2, subtask: `Part ${i}.`, access: i === 0 ? [] : 'all' })),
});

const fanOut: Workflow = {
  steps: [
    ...[0, 1, 2, 3].map((i) => ({ worker: i % 2, subtask: `Attempt ${i}.`, access: [] as number[] })),
    { worker: 0, subtask: 'Aggregate the attempts.', access: 'all' as const },
  ],
};

async function main() {
  const pool = [createSimulatedWorker(spec('w0', LATENCY_MS)), createSimulatedWorker(spec('w1', LATENCY_MS))];
  const instant = [createSimulatedWorker(spec('z0', 0)), createSimulatedWorker(spec('z1', 0))];
  await timed(chain(5), pool); // warm-up: module and JIT costs are not orchestration

  const chains = [];
  for (let n = 1; n <= 5; n++) {
    const perStep: number[] = [];
    let critical = 0;
    for (let t = 0; t < TRIALS; t++) {
      const { wallMs, result } = await timed(chain(n), pool);
      critical = plannedLatency(pool, result).reduce((a, b) => a + b, 0);
      perStep.push((wallMs - critical) / n);
    }
    chains.push({ steps: n, criticalPathMs: critical, overheadPerStepMs: round(median(perStep), 3) });
  }

  const instantPerStep: number[] = [];
  for (let t = 0; t < TRIALS; t++) instantPerStep.push((await timed(chain(5), instant)).wallMs / 5);

  const concurrent: number[] = [];
  const oneByOne: number[] = [];
  let ideal = 0;
  for (let t = 0; t < TRIALS; t++) {
    const together = await timed(fanOut, pool);
    const apart = await timed(fanOut, pool, true);
    concurrent.push(together.wallMs);
    oneByOne.push(apart.wallMs);
    const lat = plannedLatency(pool, together.result);
    ideal = lat.reduce((a, b) => a + b, 0) / (Math.max(...lat.slice(0, 4)) + lat[4]);
  }

  console.log(
    JSON.stringify({
      bench: 'orchestra',
      latencyMs: LATENCY_MS,
      trials: TRIALS,
      chain: chains,
      overheadPerStepMs: round(median(chains.map((c) => c.overheadPerStepMs)), 3),
      zeroLatencyStepMs: round(median(instantPerStep), 3),
      fanOut: {
        concurrentMs: round(median(concurrent), 1),
        sequentialMs: round(median(oneByOne), 1),
        speedup: round(median(oneByOne) / median(concurrent)),
        idealSpeedup: round(ideal),
      },
    }),
  );
}

await main();
