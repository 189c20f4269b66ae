/**
 * Method specs to runnable methods over a pool. `oracle` and `hindsight` run nothing of their own: they are
 * read from the single-worker runs, so every single:<worker> they need is added (and reported) when not asked for.
 */
import { BatonError } from '../../../errors/index.ts';
import type { WorkerSpec } from '../../../providers/index.ts';
import { conductorMaker, notInPool, type ConductorChoice, type ConductorHost, type ConductorMaker, type ModelNaming } from '../../../conductor/index.ts';
import type { EvalMethod } from '../eval-method.ts';
import { parseMethodSpec } from '../method-spec.ts';
import { moaMethod, roundRobinMethod, selfReflectMethod, singleMethod } from './fixed-plan.ts';
import { randomMethod } from './random-method.ts';

interface MethodContext {
  workers: readonly WorkerSpec[];
  maxSteps: number;
  /** How the host reads an engine model's name in a conductor:engine:<model> method. */
  naming: ModelNaming;
  /** The host a Conductor method runs on (each may have its own, so that two models stay loaded side by side). */
  conductorHost: (choice: ConductorChoice) => ConductorHost;
}

export interface BuiltMethods {
  methods: EvalMethod[];
  /** Whether the report should compute the oracle from the single runs. */
  oracle: boolean;
  /** The lambdas of the best worker per task kind with hindsight the report computes from the single runs (none: no such rows). */
  hindsight: number[];
  /** single:<worker> methods added for the oracle or hindsight. */
  added: string[];
  /** The Conductor methods' makers by method name, to load their models before the runs. */
  conductors: Map<string, ConductorMaker>;
}

function workerIndex(id: string, workers: readonly WorkerSpec[], method: string): number {
  const i = workers.findIndex((w) => w.id === id);
  if (i < 0)
    throw notInPool(
      `Method "${method}"`,
      id,
      workers.map((w) => w.id),
    );
  return i;
}

/** The access lists an evaluation's Conductors write: binary, the executor's default, under which its runs check every workflow. */
const EVAL_ACCESS = 'binary';

export async function buildMethods(names: readonly string[], ctx: MethodContext): Promise<BuiltMethods> {
  const n = ctx.workers.length;
  const methods: EvalMethod[] = [];
  const conductors = new Map<string, ConductorMaker>();
  const conductorMethod = async (name: string, choice: ConductorChoice) => {
    const settings = { poolIds: ctx.workers.map((w) => w.id), maxSteps: ctx.maxSteps, access: EVAL_ACCESS, where: `Method "${name}"` } as const;
    const maker = await conductorMaker(choice, ctx.conductorHost(choice), settings);
    conductors.set(name, maker);
    return { name, conductor: maker.conductor };
  };
  let oracle = false;
  const hindsight: number[] = [];
  for (const name of names) {
    if (methods.some((m) => m.name === name)) throw new BatonError({ code: 'run/config', message: `Method "${name}" is given twice.` });
    const spec = parseMethodSpec(name, ctx.naming);
    switch (spec.kind) {
      case 'oracle':
        oracle = true;
        break;
      case 'hindsight':
        hindsight.push(...spec.lambdas.filter((l) => !hindsight.includes(l)));
        break;
      case 'conductor':
        methods.push(await conductorMethod(name, spec.conductor));
        break;
      case 'fixed':
        methods.push(await conductorMethod(name, { kind: 'fixed-plan', file: spec.file }));
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
  if (oracle || hindsight.length > 0) {
    ctx.workers.forEach((w, i) => {
      const name = `single:${w.id}`;
      if (methods.some((m) => m.name === name)) return;
      methods.push(singleMethod(name, i));
      added.push(name);
    });
  }
  return { methods, oracle, hindsight, added, conductors };
}

/** What buildReport reads from the single runs for the methods built: the oracle row, the hindsight rows. */
export function fromSingles(built: Pick<BuiltMethods, 'oracle' | 'hindsight'>, workers: readonly Pick<WorkerSpec, 'id'>[]) {
  const singles = workers.map((w) => `single:${w.id}`);
  return { ...(built.oracle ? { oracle: { singles } } : {}), ...(built.hindsight.length > 0 ? { hindsight: { singles, lambdas: built.hindsight } } : {}) };
}
