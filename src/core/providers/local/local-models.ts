/**
 * What a pool worker that runs on this machine (provider 'engine': a model on Baton's engine; 'webllm': one of
 * web-llm's prebuilt models) needs from its runtime. core holds no engine and no DOM, so the runtime is given
 * through the WorkerContext: the Conductor's web worker gives one that shares the Conductor's GPU and loaded
 * models (services/conductor), the CLI one on Dawn (src/node).
 */
import type { ChatMessage, Usage, WorkerSpec } from '../types.ts';

export interface LocalChatRequest {
  /** The worker's messages; a trailing assistant message is a prefill the model continues. */
  messages: ChatMessage[];
  maxTokens: number;
  /** 0 decodes greedily. */
  temperature: number;
  /** Fires on the caller's stop or the call's timeout: generation (or the wait for the GPU) ends. */
  signal: AbortSignal;
  onDelta?: (text: string) => void;
}

export interface LocalGeneration {
  text: string;
  /** Tokens of the rendered chat and of the answer, as the model's own tokenizer counts them. */
  usage: Usage;
  finishReason: 'stop' | 'length';
}

export interface LocalModels {
  /** Runs one chat on the model `spec` names, loading it first when needed; failures are BatonErrors. */
  chat(spec: WorkerSpec, request: LocalChatRequest): Promise<LocalGeneration>;
}
