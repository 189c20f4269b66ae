/** `--conductor SPEC` strings to Conductors: `fixed:<file>` or `worker:<id>`. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createFixedConductor, createWorkerConductor, type Conductor } from '../core/orchestra/index.ts';
import type { WorkerModel } from '../core/providers/index.ts';
import { CliError } from './io.ts';

export const CONDUCTOR_SPEC_HELP = 'fixed:<file> (a completion text read from a file) or worker:<id> (a pool worker plays the Conductor)';

export async function conductorFromSpec(spec: string, ctx: { pool: WorkerModel[]; cwd: string }): Promise<Conductor> {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? '' : spec.slice(colon + 1);
  if (kind === 'fixed' && arg !== '') {
    const path = resolve(ctx.cwd, arg);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      throw new CliError(`--conductor ${spec}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
    return createFixedConductor(text, arg);
  }
  if (kind === 'worker' && arg !== '') {
    const worker = ctx.pool.find((w) => w.spec.id === arg);
    if (!worker) throw new CliError(`--conductor ${spec}: no worker "${arg}" in the pool (ids: ${ctx.pool.map((w) => w.spec.id).join(', ')}).`, 2);
    return createWorkerConductor(worker);
  }
  throw new CliError(`--conductor must be ${CONDUCTOR_SPEC_HELP}, got "${spec}".`, 2);
}
