/** Which Conductor writes the workflows: the app stores this choice; the client builds the Conductor. */
import { RANDOM_ROUTING_LABEL } from '../../core/bench/baselines/index.ts';

/** Where an engine model's (or adapter's) files come from. Picked files last only until the tab reloads. */
export type EngineFilesSource = { from: 'hub'; repo: string } | { from: 'url'; url: string } | { from: 'picked'; name: string };

export type EngineModelSource = { from: 'demo' } | EngineFilesSource;

/** An adapter may also be one trained on the Train page, kept in this browser (trained-adapters.ts) under its name. */
export type EngineAdapterSource = EngineFilesSource | { from: 'trained'; name: string };

/** How the weights sit on the GPU: 'auto' is f16 where the GPU has shader-f16, else f32. */
export type EngineWeights = 'auto' | 'f32' | 'f16' | 'int4';

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
}

export type ConductorChoice =
  /** The default: the demo engine model where this browser has a hardware GPU, random routing elsewhere. */
  | { kind: 'demo-auto' }
  /** Random routing (the untrained demo that runs anywhere). */
  | { kind: 'random-routing' }
  | { kind: 'engine-model'; model: EngineModelChoice }
  /** One of web-llm's prebuilt models, by its model_id (e.g. "Qwen2.5-1.5B-Instruct-q4f32_1-MLC"). */
  | { kind: 'webllm-model'; modelId: string }
  | { kind: 'pool-worker'; workerId: string }
  | { kind: 'remote-endpoint'; baseUrl: string; model: string };

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
  }
}

/** One line naming the chosen Conductor, for the Ask page; `workerName` names a pool worker by its id. */
export function describeConductor(choice: ConductorChoice, workerName?: (id: string) => string | undefined): string {
  switch (choice.kind) {
    case 'demo-auto':
      return 'demo Conductor (a tiny model trained on the demo pool where the GPU allows, else random routing)';
    case 'random-routing':
      return RANDOM_ROUTING_LABEL;
    case 'engine-model':
      return `${describeSource(choice.model.source)} on Baton's engine${choice.model.adapter ? ` + ${describeSource(choice.model.adapter)}` : ''}${choice.model.reasoning === false ? ', lists only' : ''}${choice.model.prompt === 'compact' ? ', short prompt' : ''}`;
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
