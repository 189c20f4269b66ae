/**
 * The evaluation's method strings, parsed once for `baton eval --method` and the Evaluate page: a Conductor
 * choice (conductor:<choice>, read by core/conductor's parseConductorChoice) or a baseline. Parsing is pure; what a method
 * needs from outside (a file, a model on the GPU, a remote endpoint) its host resolves.
 */
import { BatonError } from '../../errors/index.ts';
import { parseConductorChoice, splitHead, type ConductorChoice, type ModelNaming } from '../../conductor/index.ts';

type MethodSpec =
  | { kind: 'conductor'; conductor: ConductorChoice }
  | { kind: 'single'; worker: string }
  | { kind: 'oracle' }
  | { kind: 'hindsight'; lambdas: number[] }
  | { kind: 'moa'; layers: number; aggregator?: string }
  | { kind: 'random' }
  | { kind: 'round-robin' }
  | { kind: 'self-reflect'; worker: string; rounds: number }
  | { kind: 'fixed'; file: string };

const METHOD_SPEC_HELP =
  'conductor:<choice> | single:<worker> | oracle | hindsight[:<lambda>,...] | moa[:layers=L,aggregator=<worker>] | random | round-robin | ' +
  'self-reflect:<worker>,<k> | fixed:<plan file>';

const invalid = (message: string) => new BatonError({ code: 'run/config', message });

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

/** `naming`: how the host reads an engine model's name in a conductor:engine:<model> method. */
export function parseMethodSpec(text: string, naming: ModelNaming): MethodSpec {
  const method = text.trim();
  const [kind, arg] = splitHead(method);
  switch (kind) {
    case 'conductor':
      return { kind, conductor: parseConductorChoice(arg, naming) };
    case 'single':
      if (arg !== '') return { kind, worker: arg };
      break;
    case 'oracle':
    case 'random':
    case 'round-robin':
      if (arg === '') return { kind };
      break;
    case 'hindsight': {
      const lambdas = arg === '' ? [0] : arg.split(',').map(Number);
      if (lambdas.every((l) => Number.isFinite(l) && l >= 0)) return { kind, lambdas: [...new Set(lambdas)] };
      throw invalid(`Method "${method}": hindsight takes lambdas, dollars-per-question weights of at least 0, comma-separated (e.g. hindsight:0,10,100).`);
    }
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
