/**
 * The `baton` CLI as one ES module for plain Node (a GPU server's `node baton.mjs train ...`): every
 * dependency bundled in by esbuild except `webgpu` (Dawn's native binding, installed beside it). Built
 * by `npm run build` into the app's output (vite.config.ts, for the Train page's export) and by
 * `baton export train-bundle`. transformers.js is taken in its web build: Baton uses its tokenizers
 * only, and its Node build loads onnxruntime-node and sharp (native) as it starts. Code tasks need the
 * Pyodide sandbox's files beside the CLI, so the bundle cannot grade them.
 * Test: test/engine/node/commands/export/train-bundle.test.ts runs the bundle.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one package the bundle leaves out: `npm i webgpu@<this version>` installs it beside baton.mjs. */
export function webgpuVersion(): string {
  return (createRequire(import.meta.url)('webgpu/package.json') as { version: string }).version;
}

// data/ beside baton.mjs, where a training bundle puts its recorded answers.
export const bundleCli = (): Promise<Uint8Array> => bundleScript(fileURLToPath(new URL('../baton.ts', import.meta.url)), './data/');

/**
 * Any of Baton's Node entry points (the CLI, a bench script) as one ES module, `webgpu` left out; `data` is where the
 * bundle finds the repository's data/, relative to the bundle's own file (inputs/data-files.ts).
 */
export async function bundleScript(entry: string, data: string): Promise<Uint8Array> {
  const esbuild = await import('esbuild');
  const require = createRequire(import.meta.url);
  const transformersWeb = join(dirname(require.resolve('@huggingface/transformers')), 'transformers.web.js');
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['webgpu'],
    write: false,
    minify: true,
    legalComments: 'eof',
    define: { BATON_BUNDLED_DATA: JSON.stringify(data) },
    logLevel: 'silent',
    // CommonJS dependencies call require() for Node's own modules, which an ES module must be given.
    banner: { js: "import { createRequire as __batonRequire } from 'node:module'; const require = __batonRequire(import.meta.url);" },
    plugins: [
      {
        name: 'transformers-web',
        setup(build) {
          build.onResolve({ filter: /^@huggingface\/transformers$/ }, () => ({ path: transformersWeb }));
        },
      },
    ],
  });
  return result.outputFiles[0].contents;
}
