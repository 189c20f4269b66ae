import { mkdtemp, readFile, readdir, rm, truncate, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { episodeToLine } from '../../../../src/core/episodes/index.ts';
import { EpisodeDirStore } from '../../../../src/node/stores/episode-dir.ts';
import { makeEpisodes } from '../../../support/episode-factory.ts';
import { describeStoreContract } from '../../core/episodes/store-contract.ts';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-episodes-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describeStoreContract('directory store', async () => EpisodeDirStore.open(await freshDir()));

describe('directory store files', () => {
  it('writes one JSONL file per UTC day, lines as episodeToLine writes them, and reopens to the same episodes', async () => {
    const dir = await freshDir();
    const episodes = makeEpisodes(40, 51, { days: 3 });
    const store = await EpisodeDirStore.open(dir);
    await store.putMany(episodes);
    expect((await readdir(dir)).sort()).toEqual(['2026-01-01.jsonl', '2026-01-02.jsonl', '2026-01-03.jsonl']);
    const day2 = (await readFile(join(dir, '2026-01-02.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(day2.sort()).toEqual(
      episodes
        .filter((e) => e.createdAt.startsWith('2026-01-02'))
        .map(episodeToLine)
        .sort(),
    );

    const again = await EpisodeDirStore.open(dir);
    expect(await again.count()).toBe(40);
    for (const ep of episodes) expect(await again.get(ep.id)).toEqual(ep);
  });

  it('deletes by rewriting the day file, and removes a file left empty', async () => {
    const dir = await freshDir();
    const [a, b, c] = makeEpisodes(3, 52, { days: 1 });
    const lone = { ...makeEpisodes(1, 53)[0], createdAt: '2026-05-05T05:05:05.005Z' };
    const store = await EpisodeDirStore.open(dir);
    await store.putMany([a, b, c, lone]);
    expect(await store.delete(b.id)).toBe(true);
    expect(await store.delete(lone.id)).toBe(true);
    expect(await readdir(dir)).toEqual(['2026-01-01.jsonl']);
    const lines = (await readFile(join(dir, '2026-01-01.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).id).sort()).toEqual([a.id, c.id].sort());
    // The offsets of the rewritten file are current: reads still find the right lines.
    expect(await store.get(c.id)).toEqual(c);
    expect((await EpisodeDirStore.open(dir)).problems).toEqual([]);
  });

  it('lists bad lines as problems, serves the good ones, and keeps bad lines through a rewrite', async () => {
    const dir = await freshDir();
    const [a, b] = makeEpisodes(2, 54, { days: 1 });
    await writeFile(join(dir, '2026-01-01.jsonl'), `${episodeToLine(a)}\n{"half": \n${episodeToLine(b)}\n`);
    // A crash mid-append can leave a last line without its newline.
    await appendFile(join(dir, '2026-01-01.jsonl'), '{"id":"cut');
    const store = await EpisodeDirStore.open(dir);
    expect(store.problems.map((p) => [p.file, p.line])).toEqual([
      ['2026-01-01.jsonl', 2],
      ['2026-01-01.jsonl', 4],
    ]);
    expect(await store.count()).toBe(2);
    const [c] = makeEpisodes(1, 55, { days: 1 });
    await store.put(c);
    await store.delete(a.id);
    const text = await readFile(join(dir, '2026-01-01.jsonl'), 'utf8');
    expect(text.split('\n')).toEqual(['{"half": ', episodeToLine(b), '{"id":"cut', episodeToLine(c), '']);
    expect(await store.get(c.id)).toEqual(c);
  });

  it('streams an export: lines cut from a file after the first were read never come out', async () => {
    const dir = await freshDir();
    const episodes = makeEpisodes(1500, 56, { days: 1 }); // one file of about 6 MB
    const store = await EpisodeDirStore.open(dir);
    await store.putMany(episodes);
    const path = join(dir, '2026-01-01.jsonl');
    const text = await readFile(path, 'utf8');
    const lines = text.trimEnd().split('\n');
    const keep = Math.floor(lines.length / 3);
    const keptBytes = Buffer.byteLength(lines.slice(0, keep).join('\n')) + 1;

    const iterator = store.exportJsonl()[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toBe(lines[0]);
    // Cut the file to its first third while the export is under way. An export that had read the
    // whole store up front would still yield every line; a streaming one can yield only what is left.
    await truncate(path, keptBytes);
    let yielded = 1;
    while (!(await iterator.next()).done) yielded++;
    expect(keptBytes).toBeGreaterThan(1024 * 1024);
    expect(yielded).toBe(keep);
  });
});
