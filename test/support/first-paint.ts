/**
 * What a built app loads before first paint: index.html's entry chunk, its static imports (transitively)
 * and their CSS, read from the build's manifest (`build.manifest: true`) and sized gzipped at level 9, so
 * the same build always measures the same. Chunks only reached by dynamic import (providers, graders,
 * KaTeX, the Train and Evaluate pages) are the lazy rest. Shared by bench/app.ts and
 * test/e2e/first-paint.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Manifest } from 'vite';

/** Gzip bytes by file (e.g. `assets/index-BDn0gsJA.js`). */
export type GzipSizes = Record<string, number>;

export interface FirstPaint {
  js: GzipSizes;
  css: GzipSizes;
  lazy: GzipSizes;
  jsGzipBytes: number;
  cssGzipBytes: number;
}

const sum = (sizes: GzipSizes) => Object.values(sizes).reduce((a, b) => a + b, 0);

/** The first paint of the app built into `outDir`. */
export async function firstPaintOf(outDir: string): Promise<FirstPaint> {
  const manifest = JSON.parse(await readFile(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (js.has(chunk.file)) return;
    js.add(chunk.file);
    chunk.css?.forEach((c) => css.add(c));
    chunk.imports?.forEach(visit);
  };
  visit('index.html');

  const lazy = new Set(
    Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.js') && !js.has(f)),
  );
  const sizes = async (files: Iterable<string>): Promise<GzipSizes> =>
    Object.fromEntries(await Promise.all([...files].map(async (f) => [f, gzipSync(await readFile(join(outDir, f)), { level: 9 }).length] as const)));
  const [jsSizes, cssSizes, lazySizes] = await Promise.all([sizes(js), sizes(css), sizes(lazy)]);
  return { js: jsSizes, css: cssSizes, lazy: lazySizes, jsGzipBytes: sum(jsSizes), cssGzipBytes: sum(cssSizes) };
}

/** One line a chunk, largest first: its gzip size in KB and its file. */
export function chunkList(sizes: GzipSizes): string {
  return Object.entries(sizes)
    .sort(([, a], [, b]) => b - a)
    .map(([file, bytes]) => `${(bytes / 1024).toFixed(1).padStart(7)} KB  ${file}`)
    .join('\n');
}
