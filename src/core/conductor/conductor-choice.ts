/**
 * Which Conductor writes the workflows, in one vocabulary for every host: the Conductor page stores a choice,
 * `baton run --conductor`, `baton eval --method conductor:<choice>` and the Evaluate page write one as text
 * (conductor-text.ts), and createConductor (create-conductor.ts) makes it on the host that runs it. Plain data
 * and words only: the page's first paint carries this file.
 */
import { RANDOM_ROUTING_LABEL } from './random-routing-conductor.ts';

/** Where an engine model's (or adapter's) files come from in a browser tab. Picked files last only until the tab reloads. */
export type EngineFilesSource = { from: 'hub'; repo: string } | { from: 'url'; url: string } | { from: 'picked'; name: string };

/** A model's or adapter's directory on disk, as Node reads one (relative to the working directory). */
export type ModelDir = { from: 'dir'; path: string };

export type EngineModelSource = { from: 'demo' } | EngineFilesSource | ModelDir;

/** An adapter may also be one trained on the Train page, kept in this browser under its name. */
export type EngineAdapterSource = EngineFilesSource | { from: 'trained'; name: string } | ModelDir;

/** How the weights sit on the GPU: 'auto' is f16 where the GPU has shader-f16, else f32. */
export type EngineWeights = 'auto' | 'f32' | 'f16' | 'int4';

export const ENGINE_WEIGHTS: readonly EngineWeights[] = ['auto', 'f32', 'f16', 'int4'];

export interface EngineModelChoice {
  source: EngineModelSource;
  weights: EngineWeights;
  /** A LoRA adapter (PEFT layout) applied beside the weights. */
  adapter?: EngineAdapterSource;
  /**
   * false: the model writes the three lists alone, with no reasoning before them, so every run ends in a
   * workflow that parses within a bounded number of tokens (an untrained or lists-only model would
   * otherwise ramble until its token budget runs out). Absent: reasoning allowed, as the paper's Conductor does.
   */
  reasoning?: false;
  /**
   * 'compact': the first round's prompt is the Train page's (core/rl's compactPrompt: the question and the
   * pool's size, no worked examples), the prompt a trained adapter learnt under. Absent: the Ask prompt.
   */
  prompt?: 'compact';
  /** Most tokens it writes; absent: engine-conductor.ts's bound. */
  maxTokens?: number;
}

export type ConductorChoice =
  /** The default: the demo engine model where the GPU is a hardware one, random routing elsewhere. */
  | { kind: 'demo-auto' }
  /** Random routing (the untrained demo that runs anywhere). */
  | { kind: 'random-routing' }
  /** A completion text read from a plan file, answered every time. */
  | { kind: 'fixed-plan'; file: string }
  /** A pool worker plays the Conductor with Baton's prompt (the paper's prompted frontier Conductor). */
  | { kind: 'pool-worker'; workerId: string }
  /** An OpenAI-compatible endpoint serving a Conductor (e.g. vLLM with a trained adapter). */
  | { kind: 'remote-endpoint'; baseUrl: string; model: string }
  | { kind: 'engine-model'; model: EngineModelChoice }
  /** One of web-llm's prebuilt models, by its model_id (e.g. "Qwen2.5-1.5B-Instruct-q4f32_1-MLC"). */
  | { kind: 'webllm-model'; modelId: string };

export const DEMO_ENGINE_MODEL: EngineModelChoice = { source: { from: 'demo' }, weights: 'f32' };

/** A Hub repo name part: letters, digits, '-', '_', '.', not starting with '-' or '.' (the Hub's own rule). */
const HUB_NAME = '[A-Za-z0-9_][A-Za-z0-9._-]*';
const HUB_REPO = new RegExp(`^(?:https://(?:www\\.)?(?:huggingface\\.co|hf\\.co)/)?(${HUB_NAME}/${HUB_NAME})/?$`);

/**
 * The Hub repo id in what the user typed: 'owner/name', or the repo's page address pasted from the
 * browser (https://huggingface.co/owner/name). Undefined for anything else, e.g. a file's address or
 * a revision, which the engine would not read (it reads the main branch), or a dataset or Space.
 */
export function hubRepoId(text: string): string | undefined {
  const id = HUB_REPO.exec(text.trim())?.[1];
  // huggingface.co/datasets/x and /spaces/x are no model repos (the Hub keeps those names from users).
  return id && !/^(datasets|spaces)\//.test(id) ? id : undefined;
}

/** Says where files come from, for labels and episode records. */
export function describeSource(source: EngineModelSource | EngineAdapterSource): string {
  switch (source.from) {
    case 'trained':
      return `${source.name} (trained in this browser)`;
    case 'demo':
      return 'demo-conductor (tiny, trained on the demo pool)';
    case 'hub':
      return source.repo;
    case 'url':
      return source.url;
    case 'picked':
      return source.name;
    case 'dir':
      return source.path;
  }
}

/**
 * A model's or adapter's files as the text forms name them (an engine method, a pool worker's model and
 * adapter): undefined for picked files, which no stored text can name.
 */
export function engineSourceText(source: EngineModelSource | EngineAdapterSource): string | undefined {
  switch (source.from) {
    case 'demo':
      return 'demo';
    case 'trained':
      return `trained:${source.name}`;
    case 'picked':
      return undefined;
    case 'hub':
      return source.repo;
    case 'url':
      return source.url;
    case 'dir':
      return source.path;
  }
}

/** One line naming the chosen Conductor, for the Ask page; `workerName` names a pool worker by its id. */
export function describeConductor(choice: ConductorChoice, workerName?: (id: string) => string | undefined): string {
  switch (choice.kind) {
    case 'demo-auto':
      return 'demo Conductor (a tiny model trained on the demo pool where the GPU allows, else random routing)';
    case 'random-routing':
      return RANDOM_ROUTING_LABEL;
    case 'fixed-plan':
      return `the plan in ${choice.file}`;
    case 'engine-model': {
      const m = choice.model;
      const options = `${m.reasoning === false ? ', lists only' : ''}${m.prompt === 'compact' ? ', short prompt' : ''}${m.maxTokens ? `, at most ${m.maxTokens} tokens` : ''}`;
      return `${describeSource(m.source)} on Baton's engine${m.adapter ? ` + ${describeSource(m.adapter)}` : ''}${options}`;
    }
    case 'webllm-model':
      return `${choice.modelId} on web-llm`;
    case 'pool-worker': {
      if (!workerName) return `pool worker ${choice.workerId}, prompted`;
      const name = workerName(choice.workerId);
      return name ? `pool worker ${name}, prompted` : `pool worker ${choice.workerId} (no longer in the pool)`;
    }
    case 'remote-endpoint':
      return `${choice.model} at ${choice.baseUrl}`;
  }
}

/** The URLs a Conductor of this choice reaches itself: a remote endpoint, an engine model or adapter named by URL (a pool worker playing it reaches its worker's). */
export function conductorUrls(choice: ConductorChoice): string[] {
  const fileUrl = (source: EngineModelSource | EngineAdapterSource | undefined) => (source?.from === 'url' ? [source.url] : []);
  if (choice.kind === 'remote-endpoint') return [choice.baseUrl];
  if (choice.kind === 'engine-model') return [...fileUrl(choice.model.source), ...fileUrl(choice.model.adapter)];
  return [];
}
