/**
 * Presets: a pool, a Conductor choice and the spending limits under one name, switched at once, and shared as
 * a JSON file that holds no key (a WorkerSpec never has one; a file with a field that looks like one is
 * refused). Pure; tested by test/unit/app/state/preset-schema.test.ts.
 */
import type { ConductorChoice } from '../../client/index.ts';
import type { WorkerSpec } from '../../core/providers/index.ts';
import { keepFallbacksInPool, readPool } from './pool-schema.ts';
import { conductorChoice } from './settings-schema.ts';

export interface PresetLimits {
  runUsd: number | null;
  dayUsd: number | null;
  monthUsd: number | null;
}

export interface Preset {
  name: string;
  pool: WorkerSpec[];
  conductor: ConductorChoice;
  limits: PresetLimits;
}

/** What marks a file as a preset, and its format's version. */
const FILE_KIND = 'baton-preset';
const FILE_VERSION = 1;

export function presetFileText(preset: Preset): string {
  return `${JSON.stringify({ kind: FILE_KIND, version: FILE_VERSION, ...preset }, null, 2)}\n`;
}

export type PresetRead = { ok: true; preset: Preset } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const KEY_LIKE = /key|secret|token|password/i;
/** Fields of a WorkerSpec whose names look like a key's but hold none: a variable's name, a token count. */
const NOT_KEYS = new Set(['keyEnv', 'maxTokens', 'outputTokens']);

/** The first field, at any depth, whose name says it may hold a key: its path, e.g. "pool[1].apiKey". */
function keyLikeField(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = keyLikeField(item, `${path}[${i}]`);
      if (found) return found;
    }
  } else if (isObject(value)) {
    for (const [field, item] of Object.entries(value)) {
      const at = path ? `${path}.${field}` : field;
      if (KEY_LIKE.test(field) && !NOT_KEYS.has(field)) return at;
      const found = keyLikeField(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

function cap(value: unknown, field: string): number | null | string {
  if (value === undefined || value === null) return null;
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? value
    : `limits.${field} must be a positive number of dollars or null, got ${JSON.stringify(value)}`;
}

/** A preset as stored or as read from a file, checked: every problem is named by its field. */
export function readPreset(value: unknown): PresetRead {
  const bad = (why: string): PresetRead => ({ ok: false, message: `Not a usable Baton preset: ${why}.` });
  if (!isObject(value)) return bad('the file holds no JSON object');
  if (value.kind !== undefined && value.kind !== FILE_KIND) return bad(`its kind is ${JSON.stringify(value.kind)}, not "${FILE_KIND}"`);
  if (typeof value.version === 'number' && value.version > FILE_VERSION)
    return bad(`it is version ${value.version}, newer than this Baton reads (${FILE_VERSION})`);
  const keyField = keyLikeField(value, '');
  if (keyField) return bad(`${keyField} looks like a key, and a preset never holds keys (each browser keeps its own on the Workers page); remove it`);
  if (typeof value.name !== 'string' || value.name.trim() === '') return bad('name must be a non-empty text');
  if (!Array.isArray(value.pool) || value.pool.length === 0) return bad('pool must be a list of at least one worker');
  const pool = readPool(value.pool);
  if (pool.length !== value.pool.length) {
    const list = value.pool;
    const i = list.findIndex((_, j) => readPool(list.slice(0, j + 1)).length <= j);
    return bad(`pool[${i}] is not a worker (each needs a unique id, a known provider and a model)`);
  }
  if (!isObject(value.conductor)) return bad('conductor must be a Conductor choice');
  const conductor = conductorChoice(value.conductor);
  if (conductor.kind === 'random-routing' && value.conductor.kind !== 'random-routing' && value.conductor.kind !== 'demo') {
    return bad(`conductor ${JSON.stringify(value.conductor.kind)} is not a Conductor choice this Baton knows`);
  }
  if (conductor.kind === 'pool-worker' && !pool.some((w) => w.id === conductor.workerId)) {
    return bad(`conductor names worker "${conductor.workerId}", which is not in the preset's pool`);
  }
  const limits = isObject(value.limits) ? value.limits : {};
  const caps = { runUsd: cap(limits.runUsd, 'runUsd'), dayUsd: cap(limits.dayUsd, 'dayUsd'), monthUsd: cap(limits.monthUsd, 'monthUsd') };
  const problem = Object.values(caps).find((c) => typeof c === 'string');
  if (typeof problem === 'string') return bad(problem);
  return { ok: true, preset: { name: value.name.trim(), pool: keepFallbacksInPool(pool), conductor, limits: caps as PresetLimits } };
}

/** A preset file's text, read: a parse error is said as plainly as a bad field. */
export function readPresetFile(text: string): PresetRead {
  try {
    return readPreset(JSON.parse(text));
  } catch (e) {
    return { ok: false, message: `Not a usable Baton preset: the file is not JSON (${(e as Error).message}).` };
  }
}
