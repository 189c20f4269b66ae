/**
 * Which key a worker uses under the CLI: the spec's own `keyEnv`, else the provider's usual variable.
 * Local OpenAI-compatible servers need none. Keys are looked up here and handed to the provider only.
 */
import { isOpenRouter } from './common/provider-identity.ts';
import type { WorkerSpec } from './types.ts';

interface ResolvedKey {
  key?: string;
  /** The variable the key came from, or should come from; undefined when the worker needs no key. */
  keyName?: string;
}

/** Gemini's variable, the one the AI SDK reads, then the one Google's own SDKs also read. */
const GOOGLE_KEY_NAMES = ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'GOOGLE_API_KEY'];

/** The environment variable a worker's key is expected in, or undefined when it needs none. */
export function defaultKeyName(spec: WorkerSpec): string | undefined {
  if (spec.keyEnv) return spec.keyEnv;
  switch (spec.provider) {
    case 'openai':
      return 'OPENAI_API_KEY';
    case 'anthropic':
      return 'ANTHROPIC_API_KEY';
    case 'google':
      return GOOGLE_KEY_NAMES[0];
    case 'openai-compatible':
      return isOpenRouter(spec.baseUrl) ? 'OPENROUTER_API_KEY' : undefined;
    default:
      return undefined;
  }
}

export function resolveApiKey(spec: WorkerSpec, env: Record<string, string | undefined>): ResolvedKey {
  const names = !spec.keyEnv && spec.provider === 'google' ? GOOGLE_KEY_NAMES : [defaultKeyName(spec)];
  for (const name of names) {
    const key = name ? env[name]?.trim() : undefined;
    if (key) return { key, keyName: name };
  }
  return { keyName: names[0] };
}
