/**
 * Which stored key a worker uses, and where that key goes. A slot is a provider plus the origin its calls
 * reach, so a key saved for api.openai.com is never sent to another server a worker's baseUrl names.
 */
import type { WorkerSpec } from '../providers/index.ts';

const DEFAULT_ORIGIN: Partial<Record<WorkerSpec['provider'], string>> = {
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com',
};

const HEADER: Partial<Record<WorkerSpec['provider'], string>> = {
  openai: 'Authorization: Bearer',
  anthropic: 'x-api-key',
  google: 'x-goog-api-key',
  'openai-compatible': 'Authorization: Bearer',
};

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Whether workers of `provider` call a remote API (and so take a base URL and a key). */
export function callsRemoteApi(provider: WorkerSpec['provider']): boolean {
  return HEADER[provider] !== undefined;
}

/** The slot a worker's key lives in, or undefined for workers that call no remote API (or whose base URL does not parse). */
export function keySlot(spec: Pick<WorkerSpec, 'provider' | 'baseUrl'>): string | undefined {
  const header = HEADER[spec.provider];
  if (!header) return undefined;
  const origin = spec.baseUrl ? originOf(spec.baseUrl) : DEFAULT_ORIGIN[spec.provider];
  return origin === undefined ? undefined : `${spec.provider}@${origin}`;
}

/** "https://api.anthropic.com, in the x-api-key header" — what the Workers page tells the user. */
export function keyDestination(slot: string): string {
  const at = slot.indexOf('@');
  const provider = slot.slice(0, at) as WorkerSpec['provider'];
  return `${slot.slice(at + 1)}, in the ${HEADER[provider] ?? 'request'} header, straight from this tab`;
}
