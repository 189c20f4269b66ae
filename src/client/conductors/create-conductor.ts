/** Builds the Conductor the user chose on the Conductor page. */
import { BatonError } from '../../core/errors/index.ts';
import type { Conductor } from '../../core/orchestra/index.ts';
import type { WorkerModel } from '../../core/providers/types.ts';
import type { AccessMode } from '../../core/workflow/types.ts';
import type { ConductorChoice } from './conductor-choice.ts';
import { createRandomRoutingConductor } from './random-routing-conductor.ts';

export interface ConductorContext {
  pool: WorkerModel[];
  maxSteps: number;
  access: AccessMode;
  /** Builds a worker for a remote endpoint playing the Conductor (loaded lazily with the providers). */
  remoteWorker: (baseUrl: string, model: string) => Promise<WorkerModel>;
}

export async function createConductor(choice: ConductorChoice, ctx: ConductorContext): Promise<Conductor> {
  const { createWorkerConductor } = await import('../../core/orchestra/index.ts');
  switch (choice.kind) {
    case 'demo':
      return createRandomRoutingConductor({ workers: ctx.pool.length, maxSteps: ctx.maxSteps, access: ctx.access });
    case 'worker': {
      const worker = ctx.pool.find((w) => w.spec.id === choice.workerId);
      if (!worker) {
        throw new BatonError({
          code: 'run/config',
          message: `The Conductor is set to worker "${choice.workerId}", which is no longer in the pool: choose another on the Conductor page.`,
        });
      }
      return createWorkerConductor(worker, { temperature: 1 });
    }
    case 'remote':
      return createWorkerConductor(await ctx.remoteWorker(choice.baseUrl, choice.model), { temperature: 1 });
  }
}
