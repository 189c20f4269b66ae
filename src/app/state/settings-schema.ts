import { type AccessMode, DEFAULT_MAX_STEPS } from '../../core/workflow/index.ts';
import {
  ENGINE_WEIGHTS,
  type ConductorChoice,
  type EngineAdapterSource,
  type EngineFilesSource,
  type EngineModelChoice,
  type EngineModelSource,
} from '../../client/index.ts';

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
  conductor: { kind: 'demo-auto' },
};

/** A number typed out of range is clamped to it (what was meant is clear); anything not a number falls back. */
function intIn(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;
}

function limit(value: unknown, fallback: number | null): number | null {
  if (value === null) return null;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

type Loose = Partial<Record<string, unknown>> | null | undefined;

function filesSource(value: unknown): EngineFilesSource | undefined {
  const v = value as Loose;
  if (v?.from === 'hub' && typeof v.repo === 'string' && v.repo) return { from: 'hub', repo: v.repo };
  if (v?.from === 'url' && typeof v.url === 'string' && v.url) return { from: 'url', url: v.url };
  if (v?.from === 'picked' && typeof v.name === 'string') return { from: 'picked', name: v.name };
  return undefined;
}

function adapterSource(value: unknown): EngineAdapterSource | undefined {
  const v = value as Loose;
  if (v?.from === 'trained' && typeof v.name === 'string' && v.name) return { from: 'trained', name: v.name };
  return filesSource(value);
}

function engineModel(value: unknown): EngineModelChoice | undefined {
  const v = value as Loose;
  const source: EngineModelSource | undefined = (v?.source as Loose)?.from === 'demo' ? { from: 'demo' } : filesSource(v?.source);
  if (!source) return undefined;
  const weights = ENGINE_WEIGHTS.find((w) => w === v?.weights) ?? 'auto';
  const adapter = adapterSource(v?.adapter);
  return {
    source,
    weights,
    ...(adapter ? { adapter } : {}),
    ...(v?.reasoning === false ? { reasoning: false as const } : {}),
    ...(v?.prompt === 'compact' ? { prompt: 'compact' as const } : {}),
  };
}

/** The kinds a choice was stored under before they were named for what they are. */
const LEGACY_KINDS: Partial<Record<string, ConductorChoice['kind']>> = {
  auto: 'demo-auto',
  demo: 'random-routing',
  engine: 'engine-model',
  webllm: 'webllm-model',
  worker: 'pool-worker',
  remote: 'remote-endpoint',
};

/** Nothing stored: the default; a stored choice that no longer reads: random routing, which runs anywhere. */
export function conductorChoice(value: unknown): ConductorChoice {
  if (value === undefined) return DEFAULT_SETTINGS.conductor;
  const stored = value as Loose;
  const legacy = typeof stored?.kind === 'string' ? LEGACY_KINDS[stored.kind] : undefined;
  const v = legacy ? { ...stored, kind: legacy } : stored;
  if (v?.kind === 'demo-auto') return { kind: 'demo-auto' };
  if (v?.kind === 'random-routing') return { kind: 'random-routing' };
  if (v?.kind === 'engine-model') {
    const model = engineModel(v.model);
    if (model) return { kind: 'engine-model', model };
  }
  if (v?.kind === 'webllm-model' && typeof v.modelId === 'string' && v.modelId) return { kind: 'webllm-model', modelId: v.modelId };
  if (v?.kind === 'pool-worker' && typeof v.workerId === 'string') return { kind: 'pool-worker', workerId: v.workerId };
  if (v?.kind === 'remote-endpoint' && typeof v.baseUrl === 'string' && typeof v.model === 'string') {
    return { kind: 'remote-endpoint', baseUrl: v.baseUrl, model: v.model };
  }
  return { kind: 'random-routing' };
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
