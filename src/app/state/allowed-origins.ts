/**
 * The page's connect-src: the fixed hosts below plus the origins of the URLs the user chose (pool workers'
 * base URLs, a remote Conductor, an engine model or adapter URL). The app's entry turns it into the
 * Content-Security-Policy once, as the page loads (allowed-at-load.ts, src/app/csp.ts); a meta policy can
 * only narrow, never widen, so an origin added later is reachable from the next load on, and the pages say
 * so (missingOrigins).
 */
import { conductorUrls, type ConductorChoice } from '../../core/conductor/index.ts';
import { workerUrls, type WorkerSpec } from '../../core/providers/index.ts';

const FIXED_CONNECT_SOURCES: readonly string[] = [
  // The providers' own APIs.
  'https://api.openai.com',
  'https://api.anthropic.com',
  'https://generativelanguage.googleapis.com',
  'https://openrouter.ai',
  // Model files: the Hugging Face Hub and the hosts its downloads redirect to; web-llm's model libraries.
  'https://huggingface.co',
  'https://*.huggingface.co',
  'https://*.hf.co',
  'https://raw.githubusercontent.com',
  // Servers on this machine (the Ollama and vLLM presets) on any port.
  'http://localhost:*',
  'http://127.0.0.1:*',
];

/** Vite's dev server only: its hot-reload websocket. */
export const DEV_CONNECT_SOURCES: readonly string[] = ['ws://localhost:*', 'ws://127.0.0.1:*'];

/** An origin a CSP source expression can name: http(s), a DNS name or IPv4 address, an optional port. */
const ORIGIN = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/;
const SOURCE = /^(https?:)\/\/(\*\.)?([a-z0-9.-]+)(?::(\d+|\*))?$/;

/**
 * The origin of an absolute http(s) URL, or undefined: other schemes, unparsable text, and hosts a CSP
 * source cannot name (IPv6 literals, underscores, wildcards) are never allowed.
 */
export function connectOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  return ORIGIN.test(parsed.origin) ? parsed.origin : undefined;
}

/** Whether a fixed source expression (exact host, `*.` subdomains, `:*` any port) already allows `origin`. */
function fixedSourceAllows(source: string, origin: string): boolean {
  const s = SOURCE.exec(source);
  if (!s) return false;
  const [, scheme, wildcard, host, port] = s;
  const o = new URL(origin);
  const hostMatches = wildcard ? o.hostname.endsWith(`.${host}`) : o.hostname === host;
  return o.protocol === scheme && hostMatches && (port === '*' || o.port === (port ?? ''));
}

const allowedByFixed = (origin: string) => FIXED_CONNECT_SOURCES.some((source) => fixedSourceAllows(source, origin));

/** Every URL the app may be asked to reach because of the user's own choices. */
export function chosenUrls(workers: readonly WorkerSpec[], conductor: ConductorChoice): string[] {
  return [...workers.flatMap(workerUrls), ...conductorUrls(conductor)];
}

/** The origins of `urls` that the fixed sources do not already allow: valid ones only, sorted, once each. */
export function extraOrigins(urls: readonly string[]): string[] {
  const origins = urls.map(connectOrigin).filter((o): o is string => o !== undefined && !allowedByFixed(o));
  return [...new Set(origins)].sort();
}

/** The URLs no connect-src could allow (see connectOrigin), to tell the user rather than fail opaquely. */
export function unallowableUrls(urls: readonly string[]): string[] {
  return urls.filter((u) => connectOrigin(u) === undefined);
}

/** Origins the current choices need that the policy in force (`allowed`, from the page's load) lacks. */
export function missingOrigins(urls: readonly string[], allowed: readonly string[]): string[] {
  return extraOrigins(urls).filter((o) => !allowed.includes(o));
}

/** The connect-src directive: this origin, the fixed sources, then `origins` (each checked again here). */
export function connectSrcDirective(origins: readonly string[], extraSources: readonly string[] = []): string {
  const checked = origins.filter((o) => connectOrigin(o) === o);
  return ["connect-src 'self'", ...FIXED_CONNECT_SOURCES, ...extraSources, ...checked].join(' ');
}
