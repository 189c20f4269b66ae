import type { ConductorLoadStatus } from '../../../client/index.ts';
export type LoadsByRuntime = Partial<Record<ConductorLoadStatus['runtime'], ConductorLoadStatus>>;

/**
 * The load the Ask page shows, from each runtime's latest status and the latest of all: a load in
 * progress wins (the latest if it is one), so one runtime's load finishing does not hide the
 * other's still running; with none in progress, the latest status.
 */
export function shownLoad(byRuntime: LoadsByRuntime, latest: ConductorLoadStatus | undefined): ConductorLoadStatus | undefined {
  if (latest?.state === 'loading') return latest;
  return Object.values(byRuntime).find((s) => s?.state === 'loading') ?? latest;
}
