/**
 * The provider adapters (and the AI SDK behind them), loaded on the first call rather than before the
 * page's first paint, so the providers' index stays light. zod, which the SDK validates responses with, probes for eval with `Function('')` unless told to
 * run jitless; under this app's CSP that probe fails anyway and only logs a violation, so switch it off
 * first through zod's global config object (the same one `z.config()` writes).
 */
type ProvidersModule = typeof import('./create-worker.ts');

let loaded: Promise<ProvidersModule> | undefined;

export function loadProviders(): Promise<ProvidersModule> {
  const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true };
  loaded ??= import('./create-worker.ts');
  return loaded;
}
