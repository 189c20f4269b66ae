/**
 * The app's first paint stays light: the JavaScript loaded before it (the entry chunk and its static
 * imports, gzipped) of the build global-setup.ts made. The limit leaves room above bench/app.ts's 100 KB
 * budget; a failure lists every first-paint chunk with its size, so the one that grew shows.
 */
import { expect, inject, test } from 'vitest';
import { chunkList, firstPaintOf } from '../support/first-paint.ts';

const LIMIT_JS_GZIP = 120 * 1024;

test('the first paint loads at most 120 KB of JavaScript (gzip)', async () => {
  const paint = await firstPaintOf(inject('appDist'));
  const message = `first paint ${(paint.jsGzipBytes / 1024).toFixed(1)} KB of JavaScript (gzip), over ${LIMIT_JS_GZIP / 1024} KB:\n${chunkList(paint.js)}\n`;
  expect(paint.jsGzipBytes, message).toBeLessThanOrEqual(LIMIT_JS_GZIP);
});
