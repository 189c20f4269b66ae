import type { AccessMode } from '../../core/workflow/types.ts';
import { DEFAULT_MAX_STEPS } from '../../core/workflow/types.ts';
import type { ConductorChoice } from '../../client/conductors/conductor-choice.ts';


export interface Settings {
  maxSteps: number;
  access: AccessMode;
  /** Recursion rounds after the first (0 = none). */
  recursion: number;
  /** Stop a run once it has spent this many dollars (null = no limit). */
  maxUsdPerRun: number | null;
  /** Per worker call, retries included. */
  stepTimeoutS: number;
  conductor: ConductorChoice;
}

export const DEFAULT_SETTINGS: Settings = {
  maxSteps: DEFAULT_MAX_STEPS,
  access: 'positional',
  recursion: 0,
  maxUsdPerRun: 0.5,
  stepTimeoutS: 120,
  conductor: { kind: 'demo' },
};

function intIn(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

function limit(value: unknown, fallback: number | null): number | null {
  if (value === null) return null;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function conductorChoice(value: unknown): ConductorChoice {
  const v = value as Partial<Record<string, unknown>> | null;
  if (v?.kind === 'worker' && typeof v.workerId === 'string') return { kind: 'worker', workerId: v.workerId };
  if (v?.kind === 'remote' && typeof v.baseUrl === 'string' && typeof v.model === 'string') {
    return { kind: 'remote', baseUrl: v.baseUrl, model: v.model };
  }
  return { kind: 'demo' };
}

/** Stored settings, checked field by field: anything missing or malformed falls back to its default. */
export function readSettings(raw: unknown): Settings {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Record<keyof Settings, unknown>>;
  const d = DEFAULT_SETTINGS;
  return {
    maxSteps: intIn(r.maxSteps, 1, 10, d.maxSteps),
    access: r.access === 'binary' || r.access === 'positional' ? r.access : d.access,
    recursion: intIn(r.recursion, 0, 3, d.recursion),
    maxUsdPerRun: limit(r.maxUsdPerRun, d.maxUsdPerRun),
    stepTimeoutS: intIn(r.stepTimeoutS, 5, 3600, d.stepTimeoutS),
    conductor: conductorChoice(r.conductor),
  };
}
