/**
 * Export throughput of the directory episode store at 50,000 episodes, and how much memory an export
 * adds on top of the open store (whose index holds only keys and line positions). Prints one JSON line.
 *   node --expose-gc --import tsx bench/episodes.ts [count]   (without --expose-gc the heap figures are noisier)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EpisodeDirStore } from '../src/node/stores/index.ts';
import { makeEpisode } from '../test/support/episode-factory.ts';
import { seededRandom } from '../src/core/random.ts';

const count = Number(process.argv[2] ?? 50_000);
const CHUNK = 5_000;
const dir = await mkdtemp(join(tmpdir(), 'baton-bench-episodes-'));
const seconds = (t0: number) => (performance.now() - t0) / 1000;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

try {
  let t0 = performance.now();
  const writer = await EpisodeDirStore.open(dir);
  const rng = seededRandom(1);
  for (let i = 0; i < count; i += CHUNK) {
    await writer.putMany(Array.from({ length: Math.min(CHUNK, count - i) }, (_, k) => makeEpisode(rng, { id: `bench-${i + k}` })));
  }
  await writer.close();
  const writeS = seconds(t0);

  globalThis.gc?.();
  const heapBeforeOpen = heapMb();
  t0 = performance.now();
  const store = await EpisodeDirStore.open(dir);
  const openS = seconds(t0);
  globalThis.gc?.();
  const baseline = rssMb();
  const heapBaseline = heapMb();

  let peak = baseline;
  let heapPeak = heapBaseline;
  let lines = 0;
  let bytes = 0;
  t0 = performance.now();
  for await (const line of store.exportJsonl()) {
    lines++;
    bytes += line.length + 1;
    if (lines % 500 === 0) {
      peak = Math.max(peak, rssMb());
      heapPeak = Math.max(heapPeak, heapMb());
    }
  }
  const exportS = seconds(t0);

  console.log(
    JSON.stringify({
      bench: 'episodes-dir-export',
      episodes: lines,
      mb: +(bytes / 2 ** 20).toFixed(1),
      writeS: +writeS.toFixed(2),
      openS: +openS.toFixed(2),
      exportS: +exportS.toFixed(2),
      episodesPerS: Math.round(lines / exportS),
      indexHeapMb: +(heapBaseline - heapBeforeOpen).toFixed(1),
      peakRssDeltaMb: +(peak - baseline).toFixed(1),
      peakHeapDeltaMb: +(heapPeak - heapBaseline).toFixed(1),
      gcExposed: typeof globalThis.gc === 'function',
    }),
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
