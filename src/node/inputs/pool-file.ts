/**
 * A worker pool file: JSON `{ "workers": [WorkerSpec, ...] }` or a bare array. Checked field by field so a
 * mistake is reported as "workers[2].price.input: ...", never discovered mid-run.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEMO_POOL, type ProviderName, type WorkerSpec } from '../../core/providers/index.ts';
import { readRecordedModels, readRecordedSets } from '../../core/bench/index.ts';
import { isRecordedPool, RECORDED_POOLS, recordedPool, ROUTELLM_MMLU_POOL } from '../../core/providers/replay/index.ts';
import { EXPERTS_POOL } from '../../core/providers/simulated/index.ts';
import { CliError, readTextFlag, text, type CliIo } from '../cli/index.ts';
import { NODE_DATA_FILES } from './data-files.ts';

const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'google', 'openai-compatible', 'webllm', 'engine', 'simulated', 'replay'];
const EFFORTS = ['minimal', 'low', 'medium', 'high'];
const SPEC_FIELDS = [
  'id',
  'provider',
  'model',
  'baseUrl',
  'label',
  'maxTokens',
  'temperature',
  'reasoning',
  'price',
  'keyEnv',
  'description',
  'simulated',
  'adapter',
  'weights',
  'fallback',
];
const WEIGHTS = ['auto', 'f32', 'f16', 'int4'];
const PRICE_FIELDS = ['input', 'output', 'cachedInput'];
const SIMULATED_FIELDS = ['skill', 'confirmRight', 'fixWrong', 'latencyMs', 'outputTokens', 'seed'];

type Json = Record<string, unknown>;

class PoolError extends CliError {
  constructor(source: string, path: string, problem: string) {
    super(`${source}: ${path} ${problem}`);
  }
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkFields(value: Json, allowed: string[], fail: (path: string, problem: string) => never, path: string): void {
  for (const key of Object.keys(value)) {
    if (/key|secret|token$/i.test(key) && !allowed.includes(key))
      fail(`${path}.${key}`, 'looks like a key: keys never go in a pool file; put them in an environment variable (see keyEnv).');
    if (!allowed.includes(key)) fail(`${path}.${key}`, `is not a known field (known: ${allowed.join(', ')}).`);
  }
}

function checkNumber(
  value: unknown,
  path: string,
  fail: (path: string, problem: string) => never,
  opts: { min?: number; max?: number; integer?: boolean } = {},
): void {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (opts.min === undefined || value >= opts.min) &&
    (opts.max === undefined || value <= opts.max) &&
    (!opts.integer || Number.isInteger(value));
  if (!ok) {
    const range = opts.min !== undefined && opts.max !== undefined ? ` between ${opts.min} and ${opts.max}` : opts.min !== undefined ? ` >= ${opts.min}` : '';
    fail(path, `must be ${opts.integer ? 'an integer' : 'a number'}${range}, got ${JSON.stringify(value)}.`);
  }
}

/** A probability per task kind: {"default": 0.6, "math": 0.8}. */
function checkPerKind(value: unknown, path: string, fail: (path: string, problem: string) => never): void {
  if (!isObject(value) || value.default === undefined) fail(path, 'must be an object with a "default" probability, e.g. {"default": 0.6, "math": 0.8}.');
  for (const [kind, p] of Object.entries(value as Json)) checkNumber(p, `${path}.${kind}`, fail, { min: 0, max: 1 });
}

function checkString(value: unknown, path: string, fail: (path: string, problem: string) => never): void {
  if (typeof value !== 'string' || value.trim() === '') fail(path, `must be a non-empty string, got ${JSON.stringify(value)}.`);
}

function checkSpec(w: unknown, path: string, fail: (path: string, problem: string) => never): WorkerSpec {
  if (!isObject(w)) fail(path, 'must be an object with id, provider and model.');
  checkFields(w, SPEC_FIELDS, fail, path);
  checkString(w.id, `${path}.id`, fail);
  if (!PROVIDERS.includes(w.provider as ProviderName)) fail(`${path}.provider`, `must be one of ${PROVIDERS.join(', ')}, got ${JSON.stringify(w.provider)}.`);
  checkString(w.model, `${path}.model`, fail);
  for (const f of ['baseUrl', 'label', 'keyEnv', 'description', 'adapter', 'fallback'] as const)
    if (w[f] !== undefined) checkString(w[f], `${path}.${f}`, fail);
  if (w.weights !== undefined && !WEIGHTS.includes(w.weights as string))
    fail(`${path}.weights`, `must be one of ${WEIGHTS.join(', ')}, got ${JSON.stringify(w.weights)}.`);
  if (w.maxTokens !== undefined) checkNumber(w.maxTokens, `${path}.maxTokens`, fail, { min: 1, integer: true });
  if (w.temperature !== undefined) checkNumber(w.temperature, `${path}.temperature`, fail, { min: 0, max: 2 });
  if (w.reasoning !== undefined && !EFFORTS.includes(w.reasoning as string)) {
    checkNumber(w.reasoning, `${path}.reasoning`, fail, { min: 0, integer: true });
  }
  if (w.price !== undefined) {
    if (!isObject(w.price)) fail(`${path}.price`, 'must be an object {input, output} in dollars per million tokens.');
    checkFields(w.price, PRICE_FIELDS, fail, `${path}.price`);
    checkNumber(w.price.input, `${path}.price.input`, fail, { min: 0 });
    checkNumber(w.price.output, `${path}.price.output`, fail, { min: 0 });
    if (w.price.cachedInput !== undefined) checkNumber(w.price.cachedInput, `${path}.price.cachedInput`, fail, { min: 0 });
  }
  if (w.simulated !== undefined) {
    const s = w.simulated;
    const at = `${path}.simulated`;
    if (!isObject(s)) fail(at, 'must be an object with at least skill.default.');
    checkFields(s, SIMULATED_FIELDS, fail, at);
    checkPerKind(s.skill, `${at}.skill`, fail);
    for (const f of ['confirmRight', 'fixWrong'] as const) {
      if (typeof s[f] === 'number') checkNumber(s[f], `${at}.${f}`, fail, { min: 0, max: 1 });
      else if (s[f] !== undefined) checkPerKind(s[f], `${at}.${f}`, fail);
    }
    if (s.latencyMs !== undefined) checkNumber(s.latencyMs, `${at}.latencyMs`, fail, { min: 0 });
    if (s.outputTokens !== undefined) checkNumber(s.outputTokens, `${at}.outputTokens`, fail, { min: 1, integer: true });
    if (s.seed !== undefined) checkNumber(s.seed, `${at}.seed`, fail, { integer: true });
  }
  return w as unknown as WorkerSpec;
}

/** The workers of a pool file's text, in order (their index is the `Model id` the Conductor sees). */
export function parsePoolFile(text: string, source = 'pool file'): WorkerSpec[] {
  const fail = (path: string, problem: string): never => {
    throw new PoolError(source, path, problem);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${source}: not valid JSON (${(e as Error).message}).`);
  }
  const list = Array.isArray(value) ? value : isObject(value) ? value.workers : undefined;
  if (!Array.isArray(list)) fail('the top level', 'must be {"workers": [...]} or an array of workers.');
  const path = Array.isArray(value) ? '' : 'workers';
  const specs = (list as unknown[]).map((w, i) => checkSpec(w, `${path}[${i}]`, fail));
  if (specs.length === 0) fail(path || 'the array', 'is empty: a pool needs at least one worker.');
  const seen = new Set<string>();
  specs.forEach((s, i) => {
    if (seen.has(s.id)) fail(`${path}[${i}].id`, `"${s.id}" is used by an earlier worker: ids must be unique.`);
    seen.add(s.id);
  });
  specs.forEach((s, i) => {
    if (s.fallback !== undefined && (s.fallback === s.id || !seen.has(s.fallback)))
      fail(`${path}[${i}].fallback`, `must be the id of another worker of this pool, got ${JSON.stringify(s.fallback)}.`);
  });
  return specs;
}

const FIXED_POOLS = { demo: DEMO_POOL, experts: EXPERTS_POOL, 'routellm-mmlu': ROUTELLM_MMLU_POOL } as const;

/** The pools a --pool flag names without a file: simulated ones, and replays of recorded answers (docs/pools.md). */
export const BUILT_IN_POOLS = [
  ...(Object.keys(FIXED_POOLS) as (keyof typeof FIXED_POOLS)[]),
  ...(Object.keys(RECORDED_POOLS) as (keyof typeof RECORDED_POOLS)[]),
];
export type BuiltInPool = (typeof BUILT_IN_POOLS)[number];

export function isBuiltInPool(name: string): name is BuiltInPool {
  return (BUILT_IN_POOLS as string[]).includes(name);
}

/** A built-in pool's workers; a recorded one's prices and labels come from its data/<source>/models.json. */
export async function builtInPool(name: BuiltInPool): Promise<WorkerSpec[]> {
  if (!isRecordedPool(name)) return [...FIXED_POOLS[name]];
  const source = RECORDED_POOLS[name].source;
  const [models, sets] = await Promise.all([readRecordedModels(NODE_DATA_FILES, source), readRecordedSets(NODE_DATA_FILES, source)]);
  return recordedPool(
    name,
    models,
    sets.flatMap((s) => s.questions),
  );
}

/** --pool as the commands that run a pool's workers take it; readPoolFlag reads what it names. */
export const POOL_FLAG = text({
  arg: 'P',
  help:
    'a pool file, demo (four simulated workers), experts (simulated workers where only routing by kind works), ' +
    'routellm-mmlu (GPT-4 and Mixtral replaying their recorded MMLU answers, at list prices), ' +
    Object.entries(RECORDED_POOLS)
      .map(([name, p]) => `${name} (${p.about})`)
      .join(', '),
});

/**
 * A --pool value that names neither a built-in pool nor a file, most often a built-in pool's name mistyped,
 * is told so with the built-in pools listed: checked as the flags are read, before anything loads.
 */
export function checkPoolFlag(value: string, cwd: string): void {
  if (isBuiltInPool(value)) return;
  const path = resolve(cwd, value);
  if (!statSync(path, { throwIfNoEntry: false })?.isFile())
    throw new CliError(`--pool ${value}: no built-in pool of that name, and no pool file ${path}. The built-in pools: ${BUILT_IN_POOLS.join(', ')}.`, 2);
}

/** The pool a --pool flag names: a pool file or a built-in pool (POOL_FLAG's help says which). */
export async function readPoolFlag(io: CliIo, value: string): Promise<WorkerSpec[]> {
  checkPoolFlag(value, io.cwd);
  if (isBuiltInPool(value)) return builtInPool(value);
  return parsePoolFile(await readTextFlag(io, 'pool', value), value);
}
