/**
 * App start cost: builds the app and sums the gzip size of what loads before first paint: the entry chunk,
 * its static imports (transitively) and their CSS. Dynamic imports (providers, graders, KaTeX) are
 * listed apart. Prints one JSON line; budget 100 KB of JavaScript (gzip). Run: npx tsx bench/app.ts
 * (test/e2e/first-paint.test.ts fails `npm test` past a looser limit, on the same measure.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { firstPaintOf } from '../test/support/first-paint.ts';

const BUDGET_JS_GZIP = 100 * 1024;

const root = resolve(import.meta.dirname, '..');
const outDir = await mkdtemp(join(tmpdir(), 'baton-bench-app-'));
try {
  await build({ root, logLevel: 'error', build: { outDir, emptyOutDir: true, sourcemap: false, manifest: true } });
  const paint = await firstPaintOf(outDir);
  console.log(
    JSON.stringify({
      bench: 'app-start',
      firstPaintJsGzipBytes: paint.jsGzipBytes,
      firstPaintCssGzipBytes: paint.cssGzipBytes,
      budgetJsGzipBytes: BUDGET_JS_GZIP,
      withinBudget: paint.jsGzipBytes <= BUDGET_JS_GZIP,
      firstPaint: { ...paint.js, ...paint.css },
      lazy: paint.lazy,
    }),
  );
  process.exitCode = paint.jsGzipBytes <= BUDGET_JS_GZIP ? 0 : 1;
} finally {
  await rm(outDir, { recursive: true, force: true });
}
