/**
 * The evaluation's method strings and the Conductor choices, parsed once for `baton eval --method`,
 * `baton run --conductor` and the Evaluate page. Parsing is pure; what a choice needs from outside
 * (a file, a model on the GPU, a remote endpoint) the caller resolves.
 */
import { BatonError } from '../../errors/index.ts';

export type ConductorSpec =
  /** A completion text read from a file, answered every time. */
  | { kind: 'fixed'; file: string }
  /** A pool worker plays the Conductor with Baton's prompt (the paper's prompted frontier Conductor). */
  | { kind: 'worker'; id: string }
  /**
   * A model on Baton's engine, with an optional LoRA adapter (PEFT layout): a directory under Node; on the
   * Evaluate page `demo` (the built-in demo Conductor), a Hub repo or a URL, and an adapter trained in
   * the browser as `trained:<name>`. The page also runs the choices `weights`, `reasoning` and `prompt` (its
   * Conductor page's options).
   */
  | { kind: 'engine'; model: string; lora?: string; maxTokens?: number; weights?: EngineWeightsSpec; reasoning?: false; prompt?: 'compact' }
  /** One of web-llm's prebuilt models, by its model id (the Evaluate page only: web-llm runs in a browser). */
  | { kind: 'webllm'; model: string }
  /** An OpenAI-compatible endpoint serving a Conductor (e.g. vLLM with a trained adapter). */
  | { kind: 'remote'; model: string; baseUrl: string };

export const ENGINE_WEIGHTS_SPECS = ['auto', 'f32', 'f16', 'int4'] as const;
export type EngineWeightsSpec = (typeof ENGINE_WEIGHTS_SPECS)[number];

export type MethodSpec =
  | { kind: 'conductor'; conductor: ConductorSpec }
  | { kind: 'single'; worker: string }
  | { kind: 'oracle' }
  | { kind: 'moa'; layers: number; aggregator?: string }
  | { kind: 'random' }
  | { kind: 'round-robin' }
  | { kind: 'self-reflect'; worker: string; rounds: number }
  | { kind: 'fixed'; file: string };

export const CONDUCTOR_SPEC_HELP =
  'fixed:<file> (a completion text read from a file), worker:<id> (a pool worker plays the Conductor), ' +
  'engine:<model dir>[,lora=<adapter dir>][,max-tokens=N] (a model on Baton\'s engine; on the Evaluate page also engine:demo, ' +
  'a Hub repo or URL, lora=trained:<name>, weights=auto|f32|f16|int4, reasoning=off, prompt=compact), webllm:<model id> (web-llm, on the Evaluate page) ' +
  'or remote:<model>@<base URL> (an OpenAI-compatible endpoint)';

export const METHOD_SPEC_HELP =
  'conductor:<choice> | single:<worker> | oracle | moa[:layers=L,aggregator=<worker>] | random | round-robin | ' +
  'self-reflect:<worker>,<k> | fixed:<plan file>';

const invalid = (message: string) => new BatonError({ code: 'run/config', message });

/** 'head:rest' split at the first colon; rest is '' without one. */
function splitHead(text: string): [string, string] {
  const colon = text.indexOf(':');
  return colon < 0 ? [text, ''] : [text.slice(0, colon), text.slice(colon + 1)];
}

/** Each engine option: its name and what it sets, or undefined for a value it does not take. */
const ENGINE_OPTIONS: Record<string, (value: string) => Partial<Extract<ConductorSpec, { kind: 'engine' }>> | undefined> = {
  lora: (v) => (v === '' ? undefined : { lora: v }),
  'max-tokens': (v) => (/^[1-9]\d*$/.test(v) ? { maxTokens: Number(v) } : undefined),
  weights: (v) => ((ENGINE_WEIGHTS_SPECS as readonly string[]).includes(v) ? { weights: v as EngineWeightsSpec } : undefined),
  reasoning: (v) => (v === 'off' ? { reasoning: false } : undefined),
  prompt: (v) => (v === 'compact' ? { prompt: 'compact' } : undefined),
};

function parseEngineSpec(arg: string, text: string): ConductorSpec {
  const [model, ...options] = arg.split(',');
  const sets = options.map((option) => {
    const eq = option.indexOf('=');
    return eq > 0 ? ENGINE_OPTIONS[option.slice(0, eq)]?.(option.slice(eq + 1)) : undefined;
  });
  if (model === '' || sets.some((set) => set === undefined)) {
    throw invalid(
      `Conductor "${text}": write engine:<model dir>, with ,lora=<adapter dir> and ,max-tokens=N if wanted (in the browser also ,weights=auto|f32|f16|int4, ,reasoning=off, ,prompt=compact).`,
    );
  }
  return Object.assign({ kind: 'engine' as const, model }, ...sets);
}

export function parseConductorSpec(text: string): ConductorSpec {
  const [kind, arg] = splitHead(text.trim());
  if (kind === 'fixed' && arg !== '') return { kind, file: arg };
  if (kind === 'worker' && arg !== '') return { kind, id: arg };
  if (kind === 'engine' && arg !== '') return parseEngineSpec(arg, text);
  if (kind === 'webllm' && arg.trim() !== '') return { kind, model: arg.trim() };
  if (kind === 'remote') {
    const at = arg.lastIndexOf('@');
    const model = arg.slice(0, at);
    const baseUrl = arg.slice(at + 1);
    if (at > 0 && /^https?:\/\/\S+$/.test(baseUrl)) return { kind, model, baseUrl };
    throw invalid(`Conductor "${text}": write remote:<model>@<base URL>, e.g. remote:my-conductor@http://localhost:8000/v1.`);
  }
  throw invalid(`A Conductor must be ${CONDUCTOR_SPEC_HELP}; got "${text}".`);
}

function positiveInt(value: string, what: string, method: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw invalid(`Method "${method}": ${what} must be a whole number of at least 1, got "${value}".`);
  return n;
}

function parseMoa(arg: string, method: string): MethodSpec {
  let layers = 1;
  let aggregator: string | undefined;
  for (const option of arg === '' ? [] : arg.split(',')) {
    const [key, value = ''] = option.split('=');
    if (key === 'layers') layers = positiveInt(value, 'layers', method);
    else if (key === 'aggregator' && value !== '') aggregator = value;
    else throw invalid(`Method "${method}": moa takes layers=L and aggregator=<worker id>, got "${option}".`);
  }
  return { kind: 'moa', layers, ...(aggregator ? { aggregator } : {}) };
}

export function parseMethodSpec(text: string): MethodSpec {
  const method = text.trim();
  const [kind, arg] = splitHead(method);
  switch (kind) {
    case 'conductor':
      return { kind, conductor: parseConductorSpec(arg) };
    case 'single':
      if (arg !== '') return { kind, worker: arg };
      break;
    case 'oracle':
    case 'random':
    case 'round-robin':
      if (arg === '') return { kind };
      break;
    case 'moa':
      return parseMoa(arg, method);
    case 'self-reflect': {
      const [worker, k] = arg.split(',');
      if (worker && k !== undefined) return { kind, worker, rounds: positiveInt(k, 'the number of reflections k', method) };
      break;
    }
    case 'fixed':
      if (arg !== '') return { kind, file: arg };
      break;
  }
  throw invalid(`A method must be ${METHOD_SPEC_HELP}; got "${text}".`);
}
