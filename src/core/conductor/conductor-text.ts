/**
 * A Conductor choice as text, for `baton run --conductor`, `baton eval --method conductor:<choice>` and the
 * Evaluate page's method strings: fixed:<file>, worker:<id>, engine:<model>[,options], webllm:<model id>,
 * remote:<model>@<base URL>. One parser for every host; only how an engine model's name reads is the host's
 * (ModelNaming). The page's own choices (the demo where the GPU allows, random routing) have no text form.
 */
import { BatonError } from '../errors/index.ts';
import {
  DEMO_ENGINE_MODEL,
  engineSourceText,
  ENGINE_WEIGHTS,
  hubRepoId,
  type ConductorChoice,
  type EngineAdapterSource,
  type EngineFilesSource,
  type EngineModelChoice,
  type EngineModelSource,
  type EngineWeights,
  type ModelDir,
} from './conductor-choice.ts';

/**
 * How a host reads an engine model's or adapter's name: 'dir', a directory (Node); 'web', as a tab does: demo, a
 * Hub repo (owner/name or its page's address) or a URL, an adapter also trained:<name>, and anything else a
 * directory (which a tab cannot load, and says so).
 */
export type ModelNaming = 'dir' | 'web';

export const CONDUCTOR_CHOICE_HELP =
  'fixed:<file> (a completion text read from a file), worker:<id> (a pool worker plays the Conductor), ' +
  "engine:<model>[,lora=<adapter>][,max-tokens=N][,weights=auto|f32|f16|int4][,reasoning=off][,prompt=compact] (a model on Baton's engine: " +
  'under Node a model and an adapter directory; on the Evaluate page demo, a Hub repo or a URL, and an adapter also trained:<name>), ' +
  'webllm:<model id> (web-llm, on the Evaluate page) or remote:<model>@<base URL> (an OpenAI-compatible endpoint)';

const invalid = (message: string) => new BatonError({ code: 'run/config', message });

/** The weights a model takes unless the text says: the demo's f32 (as the Conductor page loads it), 'auto' for any other. */
export const defaultEngineWeights = (source: EngineModelSource): EngineWeights => (source.from === 'demo' ? DEMO_ENGINE_MODEL.weights : 'auto');

/** An address the engine fetches files from. */
const URL_TEXT = /^https?:\/\/\S+$/i;

const TRAINED = 'trained:';

/** A model's or adapter's files as a tab names them: a Hub repo (owner/name, or its page's address) or a URL. */
function webFilesSource(text: string): EngineFilesSource | undefined {
  const repo = hubRepoId(text);
  if (repo) return { from: 'hub', repo };
  return URL_TEXT.test(text) ? { from: 'url', url: text } : undefined;
}

/** A model as a tab names it: demo (the demo Conductor, served with the app) or webFilesSource's. */
export function webModelSource(text: string): EngineModelSource | undefined {
  return text.toLowerCase() === 'demo' ? { from: 'demo' } : webFilesSource(text);
}

/** An adapter as a tab names it: trained:<name> (trained on the Train page, kept in this browser) or webFilesSource's. */
export function webAdapterSource(text: string): EngineAdapterSource | undefined {
  const trained = text.startsWith(TRAINED) ? text.slice(TRAINED.length).trim() : '';
  return trained ? { from: 'trained', name: trained } : webFilesSource(text);
}

const dir = (path: string): ModelDir => ({ from: 'dir', path });

const modelSource = (text: string, naming: ModelNaming): EngineModelSource => (naming === 'web' ? webModelSource(text) : undefined) ?? dir(text);

const adapterSource = (text: string, naming: ModelNaming): EngineAdapterSource => (naming === 'web' ? webAdapterSource(text) : undefined) ?? dir(text);

type EngineOptions = Partial<Omit<EngineModelChoice, 'source' | 'adapter'>> & { lora?: string };

/** Each engine option: its name and what it sets, or undefined for a value it does not take. */
const ENGINE_OPTIONS: Record<string, (value: string) => EngineOptions | undefined> = {
  lora: (v) => (v === '' ? undefined : { lora: v }),
  'max-tokens': (v) => (/^[1-9]\d*$/.test(v) ? { maxTokens: Number(v) } : undefined),
  weights: (v) => (ENGINE_WEIGHTS.includes(v as EngineWeights) ? { weights: v as EngineWeights } : undefined),
  reasoning: (v) => (v === 'off' ? { reasoning: false } : undefined),
  prompt: (v) => (v === 'compact' ? { prompt: 'compact' } : undefined),
};

function parseEngine(arg: string, text: string, naming: ModelNaming): EngineModelChoice {
  const [model, ...options] = arg.split(',');
  const sets = options.map((option) => {
    const eq = option.indexOf('=');
    return eq > 0 ? ENGINE_OPTIONS[option.slice(0, eq)]?.(option.slice(eq + 1)) : undefined;
  });
  if (model === '' || sets.some((set) => set === undefined)) {
    throw invalid(
      `Conductor "${text}": write engine:<model>, then any of ,lora=<adapter> ,max-tokens=N ,weights=auto|f32|f16|int4 ,reasoning=off ,prompt=compact.`,
    );
  }
  const { lora, ...set }: EngineOptions = Object.assign({}, ...sets);
  const source = modelSource(model, naming);
  return { source, weights: defaultEngineWeights(source), ...(lora ? { adapter: adapterSource(lora, naming) } : {}), ...set };
}

/** 'head:rest' split at the first colon; rest is '' without one. */
export function splitHead(text: string): [string, string] {
  const colon = text.indexOf(':');
  return colon < 0 ? [text, ''] : [text.slice(0, colon), text.slice(colon + 1)];
}

export function parseConductorChoice(text: string, naming: ModelNaming): ConductorChoice {
  const [kind, arg] = splitHead(text.trim());
  if (kind === 'fixed' && arg !== '') return { kind: 'fixed-plan', file: arg };
  if (kind === 'worker' && arg !== '') return { kind: 'pool-worker', workerId: arg };
  if (kind === 'engine' && arg !== '') return { kind: 'engine-model', model: parseEngine(arg, text, naming) };
  if (kind === 'webllm' && arg.trim() !== '') return { kind: 'webllm-model', modelId: arg.trim() };
  if (kind === 'remote') {
    const at = arg.lastIndexOf('@');
    const model = arg.slice(0, at);
    const baseUrl = arg.slice(at + 1);
    if (at > 0 && URL_TEXT.test(baseUrl)) return { kind: 'remote-endpoint', model, baseUrl };
    throw invalid(`Conductor "${text}": write remote:<model>@<base URL>, e.g. remote:my-conductor@http://localhost:8000/v1.`);
  }
  throw invalid(`A Conductor must be ${CONDUCTOR_CHOICE_HELP}; got "${text}".`);
}

function engineText(model: EngineModelChoice): string | undefined {
  const where = engineSourceText(model.source);
  const adapter = model.adapter && engineSourceText(model.adapter);
  if (where === undefined || (model.adapter && adapter === undefined)) return undefined;
  const options = [
    ...(adapter ? [`lora=${adapter}`] : []),
    ...(model.maxTokens ? [`max-tokens=${model.maxTokens}`] : []),
    ...(model.weights !== defaultEngineWeights(model.source) ? [`weights=${model.weights}`] : []),
    ...(model.reasoning === false ? ['reasoning=off'] : []),
    ...(model.prompt ? [`prompt=${model.prompt}`] : []),
  ];
  return [`engine:${where}`, ...options].join(',');
}

/**
 * The text parseConductorChoice reads back as `choice`; undefined for a choice no text names (the demo where the
 * GPU allows, random routing, a model on picked files).
 */
export function conductorChoiceText(choice: ConductorChoice): string | undefined {
  switch (choice.kind) {
    case 'demo-auto':
    case 'random-routing':
      return undefined;
    case 'fixed-plan':
      return `fixed:${choice.file}`;
    case 'pool-worker':
      return `worker:${choice.workerId}`;
    case 'remote-endpoint':
      return `remote:${choice.model}@${choice.baseUrl}`;
    case 'engine-model':
      return engineText(choice.model);
    case 'webllm-model':
      return `webllm:${choice.modelId}`;
  }
}
