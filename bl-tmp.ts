import { hindsightBaselines, routingWorkflows } from '/work/main/src/core/bench/index.ts';
import { createSimulatedWorker, DEMO_POOL } from '/work/main/src/core/providers/simulated/index.ts';
import { readBuiltInTaskSet } from '/work/main/src/node/task-file.ts';
const { heldOut, train } = await readBuiltInTaskSet('experts-short', 20261129);
const pool = DEMO_POOL.map(createSimulatedWorker);
for (const steps of [1, 2] as const) {
  const b = await hindsightBaselines(routingWorkflows(4, steps), heldOut, pool);
  console.log(steps, heldOut.length, train.length, b.randomRouting.toFixed(3), b.bestFixed.accuracy.toFixed(3), JSON.stringify(b.bestFixed.workflow.steps.map(s=>s.worker)), b.bestPerKind.accuracy.toFixed(3), b.workflows.slice(0,4).map(w => `${w.accuracy.toFixed(3)} ${JSON.stringify(w.byKind)}`).join(' | '));
}
