import type { Price, Usage } from '../pricing/index.ts';
import type { Task } from '../task.ts';

export type { Price, Usage };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type ProviderName = 'openai' | 'anthropic' | 'google' | 'openai-compatible' | 'webllm' | 'engine' | 'simulated' | 'replay';

/** How a simulated worker behaves (see providers/simulated). Only for provider 'simulated'. */
/** A probability per task kind, `default` for the rest. */
export type PerKind = Partial<Record<string, number>> & { default: number };

export interface SimulatedBehaviour {
  /** Probability of a right answer when solving alone. */
  skill: PerKind;
  /**
   * Seeing a right earlier answer: probability it ends right (a good verifier ~0.95). One number for
   * every kind, or per kind (a checker good at arithmetic only).
   */
  confirmRight?: number | PerKind;
  /** Seeing a wrong earlier answer: probability it still finds the right one (a good verifier ~0.6); a number or per kind. */
  fixWrong?: number | PerKind;
  /** Mean latency in ms (deterministic per call, +-20%). */
  latencyMs?: number;
  /** Output tokens per response, roughly. */
  outputTokens?: number;
  seed?: number;
}

/** One worker in the pool. Keys are never part of a WorkerSpec. */
export interface WorkerSpec {
  id: string;
  provider: ProviderName;
  model: string;
  baseUrl?: string;
  label?: string;
  maxTokens?: number;
  temperature?: number;
  /** Reasoning budget: an effort word (GPT-5) or a token budget (Claude, Gemini thinking). */
  reasoning?: 'minimal' | 'low' | 'medium' | 'high' | number;
  price?: Price;
  /** CLI: the environment variable holding this worker's key, if not the provider's default. */
  keyEnv?: string;
  /** Optional text shown to the Conductor when descriptions are on (off by default). */
  description?: string;
  simulated?: SimulatedBehaviour;
  /**
   * Provider 'engine': a LoRA adapter (PEFT layout) on the model: a directory under the CLI; in the app, a Hub
   * repo id, a URL, or `trained:<name>` for one trained on the Train page.
   */
  adapter?: string;
  /** Provider 'engine': how the weights sit on the GPU ('auto': f16 where the GPU has shader-f16, else f32). */
  weights?: 'auto' | 'f32' | 'f16' | 'int4';
  /**
   * The id of another pool worker that takes a step over when this one's provider still fails after its
   * retries (down, rate-limited, unreachable); not when it refuses the key, which is the user's to fix.
   */
  fallback?: string;
}

export interface CallRequest {
  /** User message(s); a trailing assistant message is a prefill the model continues. */
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Per-call timeout in ms (the whole call, retries included). */
  timeoutMs?: number;
  onDelta?: (text: string) => void;
  /**
   * Ask again when a stream breaks off part-way, as after a dropped connection: only where nobody watches
   * onDelta's text arrive (the CLI streams to itself). To a person watching, a second answer would repeat
   * what they already read, so by default such a stream fails with the text it had sent.
   */
  retryCutStreams?: boolean;
  /** The overall task. Simulated and replay workers read it; network providers ignore it. */
  task?: Task;
}

export interface CallResult {
  text: string;
  usage: Usage;
  latencyMs: number;
  attempts: number;
  finishReason?: string;
  /** Answered by a response cache from an identical earlier call (orchestra's ResponseCache): nothing was paid for it. */
  fromCache?: boolean;
}

/** A ready-to-call worker backend: one interface for every provider. */
export interface WorkerModel {
  readonly spec: WorkerSpec;
  /** Whether a trailing assistant message is honoured as a prefill. */
  readonly supportsPrefill: boolean;
  call(req: CallRequest): Promise<CallResult>;
}
