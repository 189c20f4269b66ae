import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { DEV_CONNECT_SOURCES } from './src/app/state/allowed-origins.ts';

/**
 * The dev server injects styles inline and talks HMR over a websocket; the built app needs neither, so
 * only `vite` (serve) loosens index.html's Content-Security-Policy (src/app/csp.ts adds the same
 * websocket sources to its connect-src in dev).
 */
function devCsp(): Plugin {
  return {
    name: 'baton-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", `connect-src 'self' ${DEV_CONNECT_SOURCES.join(' ')}`),
  };
}

export default defineConfig({
  plugins: [svelte(), devCsp()],
  worker: { format: 'es' },
  // The large chunks (AI SDK providers, mathjs graders, KaTeX) load on demand, never before first paint;
  // bench/app.ts measures what does.
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 1000 },
});
