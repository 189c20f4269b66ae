/**
 * Which of web-llm's prebuilt models Baton offers as a Conductor: general instruct models with a
 * 4k context (the Conductor prompt with its worked examples does not fit the "-1k" builds), in the
 * order the Conductor page lists them. The paper's Conductor base, Qwen2.5-7B-Instruct, comes first.
 * Coder/Math variants, unquantized (q0) builds and models too large for a browser are left out.
 * A name missing from the installed web-llm is skipped, so a web-llm update cannot break the list.
 */
export interface ConductorModelFamily {
  /** Prefix of web-llm's model_id, before the quantization (e.g. "Qwen2.5-7B-Instruct"). */
  base: string;
  /** What the Conductor page shows. */
  label: string;
  /**
   * Models that think inside <think> before answering by default. Baton turns that off: the
   * Conductor prompt asks for visible reasoning, and a hidden one would spend the token budget.
   */
  thinks: boolean;
}

export const CONDUCTOR_MODELS: readonly ConductorModelFamily[] = [
  { base: 'Qwen2.5-7B-Instruct', label: 'Qwen2.5 7B Instruct (the paper\u2019s Conductor base)', thinks: false },
  { base: 'Qwen2.5-3B-Instruct', label: 'Qwen2.5 3B Instruct', thinks: false },
  { base: 'Qwen2.5-1.5B-Instruct', label: 'Qwen2.5 1.5B Instruct', thinks: false },
  { base: 'Qwen2.5-0.5B-Instruct', label: 'Qwen2.5 0.5B Instruct', thinks: false },
  { base: 'Qwen3-8B', label: 'Qwen3 8B', thinks: true },
  { base: 'Qwen3-4B', label: 'Qwen3 4B', thinks: true },
  { base: 'Qwen3-1.7B', label: 'Qwen3 1.7B', thinks: true },
  { base: 'Qwen3-0.6B', label: 'Qwen3 0.6B', thinks: true },
  { base: 'Llama-3.1-8B-Instruct', label: 'Llama 3.1 8B Instruct', thinks: false },
  { base: 'Llama-3.2-3B-Instruct', label: 'Llama 3.2 3B Instruct', thinks: false },
  { base: 'Llama-3.2-1B-Instruct', label: 'Llama 3.2 1B Instruct', thinks: false },
];
