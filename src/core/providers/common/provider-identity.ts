import type { WorkerSpec } from '../types.ts';

/** Who is being called, as error messages name it. Never holds the key itself. */
export interface ProviderIdentity {
  /** Starts a sentence: "OpenAI", "OpenRouter", "The server at http://localhost:11434". */
  label: string;
  model: string;
  /** The name of the key in use (an environment variable or a key-store slot); undefined when none. */
  keyName?: string;
  /** Where the user gets or checks a key. */
  keyPage?: string;
  /** Whether calls need a key at all (local OpenAI-compatible servers do not). */
  needsKey: boolean;
  /** A local server the user runs (changes the hints: CORS flags, whether it is up). */
  local: boolean;
}

const OPENROUTER_HOST = 'openrouter.ai';

export function isOpenRouter(baseUrl: string | undefined): boolean {
  return hostOf(baseUrl)?.endsWith(OPENROUTER_HOST) ?? false;
}

export function providerIdentity(spec: WorkerSpec, keyName: string | undefined): ProviderIdentity {
  const common = { model: spec.model, keyName, local: false };
  switch (spec.provider) {
    case 'openai':
      return { ...common, label: 'OpenAI', keyPage: 'https://platform.openai.com/api-keys', needsKey: true };
    case 'anthropic':
      return { ...common, label: 'Anthropic', keyPage: 'https://console.anthropic.com/settings/keys', needsKey: true };
    case 'google':
      return { ...common, label: 'Google Gemini', keyPage: 'https://aistudio.google.com/apikey', needsKey: true };
    default:
      if (isOpenRouter(spec.baseUrl)) {
        return { ...common, label: 'OpenRouter', keyPage: 'https://openrouter.ai/keys', needsKey: true };
      }
      return {
        ...common,
        label: `The server at ${originOf(spec.baseUrl)}`,
        needsKey: false,
        local: isLocalHost(hostOf(spec.baseUrl)),
      };
  }
}

function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
}

function originOf(url: string | undefined): string {
  try {
    return url ? new URL(url).origin : '(no baseUrl)';
  } catch {
    return url ?? '(no baseUrl)';
  }
}

function isLocalHost(host: string | undefined): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '0.0.0.0';
}
