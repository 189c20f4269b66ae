import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { DEV_CONNECT_SOURCES } from './src/app/state/allowed-origins.ts';
import { bundleCli, webgpuVersion } from './src/node/cli/bundle.ts';

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
      html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace("connect-src 'self'", `connect-src 'self' ${DEV_CONNECT_SOURCES.join(' ')}`),
  };
}

/** What loadPyodide fetches from its indexURL; all of it ships inside the pyodide package. */
const PYODIDE_FILES = ['pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];
const PYODIDE_TYPES: Record<string, string> = { mjs: 'text/javascript', wasm: 'application/wasm', zip: 'application/zip', json: 'application/json' };

/**
 * The code-grading sandbox (workers/sandbox.worker.ts) loads Python from `<base>pyodide/`: the dev
 * server serves the package's files there, and a build copies them there, so nothing comes from a CDN.
 */
export function pyodideAssets(): Plugin {
  const dir = dirname(createRequire(import.meta.url).resolve('pyodide'));
  return {
    name: 'baton-pyodide-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const prefix = `${server.config.base}pyodide/`;
        const file = req.url?.startsWith(prefix) ? req.url.slice(prefix.length).split('?')[0] : '';
        if (!PYODIDE_FILES.includes(file)) return next();
        res.setHeader('Content-Type', PYODIDE_TYPES[file.split('.').pop()!]);
        createReadStream(join(dir, file)).pipe(res);
      });
    },
    generateBundle() {
      for (const file of PYODIDE_FILES) this.emitFile({ type: 'asset', fileName: `pyodide/${file}`, source: readFileSync(join(dir, file)) });
    },
  };
}

/**
 * The Train page's "Export for a GPU server" packs the `baton` CLI as one file: built here with the app
 * (and on first request by the dev server), under <base>baton-cli/ beside the webgpu version it needs,
 * and fetched by the trainer worker only when the user exports.
 */
function cliBundle(): Plugin {
  const files = async (): Promise<Record<string, Uint8Array | string>> => ({
    'baton.mjs': await bundleCli(),
    'version.json': `${JSON.stringify({ webgpu: webgpuVersion() })}\n`,
  });
  let built: Promise<Record<string, Uint8Array | string>> | undefined;
  return {
    name: 'baton-cli-bundle',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const prefix = `${server.config.base}baton-cli/`;
        const file = req.url?.startsWith(prefix) ? req.url.slice(prefix.length).split('?')[0] : '';
        if (file !== 'baton.mjs' && file !== 'version.json') return next();
        built ??= files();
        built.then(
          (all) => {
            res.setHeader('Content-Type', file.endsWith('.mjs') ? 'text/javascript' : 'application/json');
            res.end(all[file]);
          },
          (e: unknown) => next(e),
        );
      });
    },
    async generateBundle() {
      for (const [name, source] of Object.entries(await files())) this.emitFile({ type: 'asset', fileName: `baton-cli/${name}`, source });
    },
  };
}

const SOURCES = `${import.meta.dirname}/src/`;

/**
 * Importing Baton's own modules does nothing but define their exports, save the one that registers
 * comlink's error handler; saying so lets the bundle drop what the page imports and never uses. Without
 * it, an index the page imports for one light export (core/orchestra's, for a constant) keeps all that
 * index reaches whose dependencies run code on import (mathjs's, through the graders): 190 KB gzip in the
 * first paint, unused. Other modules keep their package's own `sideEffects`.
 */
function sourcesWithoutSideEffects(id: string): boolean | undefined {
  if (!id.startsWith(SOURCES) || !/\.(ts|svelte)$/.test(id)) return undefined;
  return id === `${SOURCES}core/errors/error-transfer.ts`;
}

export default defineConfig({
  plugins: [svelte(), devCsp(), pyodideAssets(), cliBundle()],
  // Pyodide's own advice for Vite: its module is used as published, not pre-bundled by the dev server.
  optimizeDeps: { exclude: ['pyodide'] },
  worker: { format: 'es' },
  // The large chunks (AI SDK providers, mathjs graders, KaTeX) load on demand, never before first paint;
  // bench/app.ts measures what does, and test/e2e/first-paint.test.ts holds it.
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1000,
    rolldownOptions: { treeshake: { moduleSideEffects: sourcesWithoutSideEffects } },
  },
});
