/**
 * App start cost: builds the app and sums the gzip size of what loads before first paint: the entry chunk,
 * its static imports (transitively) and their CSS. Dynamic imports (providers, graders, KaTeX) are
 * listed apart. Prints one JSON line; budget 250 KB of JavaScript (gzip). Run: npx tsx bench/app.ts
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';

const BUDGET_JS_GZIP = 250 * 1024;

const root = resolve(import.meta.dirname, '..');
const outDir = await mkdtemp(join(tmpdir(), 'baton-bench-app-'));
try {
  await build({ root, logLevel: 'error', build: { outDir, emptyOutDir: true, sourcemap: false, manifest: true } });
  const manifest = JSON.parse(await readFile(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const gzipOf = async (file: string) => gzipSync(await readFile(join(outDir, file)), { level: 9 }).length;

  const firstPaint = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (firstPaint.has(chunk.file)) return;
    firstPaint.add(chunk.file);
    chunk.css?.forEach((c) => css.add(c));
    chunk.imports?.forEach(visit);
  };
  visit('index.html');

  const lazy = Object.values(manifest).filter((c) => c.file.endsWith('.js') && !firstPaint.has(c.file));
  const sizes = async (files: string[]): Promise<Record<string, number>> =>
    Object.fromEntries(await Promise.all(files.map(async (f) => [f, await gzipOf(f)] as const)));
  const jsSizes = await sizes([...firstPaint]);
  const cssSizes = await sizes([...css]);
  const lazySizes = await sizes(lazy.map((c) => c.file));
  const jsGzip = Object.values(jsSizes).reduce((a, b) => a + b, 0);
  console.log(
    JSON.stringify({
      bench: 'app-start',
      firstPaintJsGzipBytes: jsGzip,
      firstPaintCssGzipBytes: Object.values(cssSizes).reduce((a, b) => a + b, 0),
      budgetJsGzipBytes: BUDGET_JS_GZIP,
      withinBudget: jsGzip <= BUDGET_JS_GZIP,
      firstPaint: { ...jsSizes, ...cssSizes },
      lazy: lazySizes,
    }),
  );
  process.exitCode = jsGzip <= BUDGET_JS_GZIP ? 0 : 1;
} finally {
  await rm(outDir, { recursive: true, force: true });
}
