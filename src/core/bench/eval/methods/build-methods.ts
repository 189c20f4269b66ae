/**
 * Method specs to runnable methods over a pool. `oracle` runs nothing of its own: it is read from the
 * single-worker runs, so every single:<worker> it needs is added (and reported) when not asked for.
 */
import { BatonError } from '../../../errors/index.ts';
import { createWorkerConductor, type Conductor } from '../../../orchestra/index.ts';
import type { WorkerSpec } from '../../../providers/index.ts';
import type { EvalMethod, MethodRun } from '../eval-method.ts';
import { parseMethodSpec, type ConductorSpec } from '../method-spec.ts';
import { moaMethod, roundRobinMethod, selfReflectMethod, singleMethod } from './fixed-plan.ts';
import { randomMethod } from './random-method.ts';

export interface MethodContext {
  workers: readonly WorkerSpec[];
  maxSteps: number;
  /** Builds a Conductor that needs the outside world: a plan file, a model on the GPU, a remote endpoint. */
  resolveConductor: (spec: Exclude<ConductorSpec, { kind: 'worker' }>, method: string) => Promise<EvalMethod['conductor']>;
}

export interface BuiltMethods {
  methods: EvalMethod[];
  /** Whether the report should compute the oracle from the single runs. */
  oracle: boolean;
  /** single:<worker> methods added for the oracle. */
  added: string[];
}

function workerIndex(id: string, workers: readonly WorkerSpec[], method: string): number {
  const i = workers.findIndex((w) => w.id === id);
  if (i < 0) throw new BatonError({ code: 'run/config', message: `Method "${method}": no worker "${id}" in the pool (ids: ${workers.map((w) => w.id).join(', ')}).` });
  return i;
}

/** A pool worker playing the Conductor, at the paper's temperature for a prompted Conductor (1). */
export const poolWorkerConductor = (id: string) => (run: Pick<MethodRun, 'pool'>) => createWorkerConductor(run.pool.find((w) => w.spec.id === id)!, { temperature: 1 });

async function conductorMethod(name: string, spec: ConductorSpec, ctx: MethodContext): Promise<EvalMethod> {
  if (spec.kind === 'worker') {
    workerIndex(spec.id, ctx.workers, name);
    return { name, conductor: poolWorkerConductor(spec.id) };
  }
  return { name, conductor: await ctx.resolveConductor(spec, name) };
}

export async function buildMethods(names: readonly string[], ctx: MethodContext): Promise<BuiltMethods> {
  const n = ctx.workers.length;
  const methods: EvalMethod[] = [];
  let oracle = false;
  for (const name of names) {
    if (methods.some((m) => m.name === name)) throw new BatonError({ code: 'run/config', message: `Method "${name}" is given twice.` });
    const spec = parseMethodSpec(name);
    switch (spec.kind) {
      case 'oracle':
        oracle = true;
        break;
      case 'conductor':
        methods.push(await conductorMethod(name, spec.conductor, ctx));
        break;
      case 'fixed':
        methods.push(await conductorMethod(name, spec, ctx));
        break;
      case 'single':
        methods.push(singleMethod(name, workerIndex(spec.worker, ctx.workers, name)));
        break;
      case 'round-robin':
        methods.push(roundRobinMethod(name, n));
        break;
      case 'self-reflect':
        methods.push(selfReflectMethod(name, workerIndex(spec.worker, ctx.workers, name), spec.rounds));
        break;
      case 'moa':
        methods.push(moaMethod(name, n, spec.layers, spec.aggregator === undefined ? 0 : workerIndex(spec.aggregator, ctx.workers, name)));
        break;
      case 'random':
        methods.push(randomMethod(name, n, ctx.maxSteps));
        break;
    }
  }
  const added: string[] = [];
  if (oracle) {
    ctx.workers.forEach((w, i) => {
      const name = `single:${w.id}`;
      if (methods.some((m) => m.name === name)) return;
      methods.push(singleMethod(name, i));
      added.push(name);
    });
  }
  return { methods, oracle, added };
}
