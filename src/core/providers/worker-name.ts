import type { WorkerSpec } from './types.ts';

/** A worker as its user named it (the id is internal), with the id when they differ: `"Euler (math)" (sim-euler)`. */
export function workerName(spec: Pick<WorkerSpec, 'id' | 'label'>): string {
  return spec.label && spec.label !== spec.id ? `"${spec.label}" (${spec.id})` : `"${spec.id}"`;
}
