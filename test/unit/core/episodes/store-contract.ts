/**
 * What every EpisodeStore must do, run against the IndexedDB store and the directory store alike.
 * Expectations are computed here with plain array code, independent of the stores' filter module.
 */
import { describe, expect, it } from 'vitest';
import type { Episode, EpisodeStore } from '../../../../src/core/episodes/index.ts';
import { makeEpisode, makeEpisodes } from '../../../support/episode-factory.ts';
import { seededRandom } from '../../../../src/core/random.ts';

const byTime = (a: Episode, b: Episode) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byId = (a: Episode, b: Episode) => (a.id < b.id ? -1 : 1);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function allPages(store: EpisodeStore, options: Parameters<EpisodeStore['list']>[0]): Promise<Episode[]> {
  const out: Episode[] = [];
  let cursor = options?.cursor;
  do {
    const page = await store.list({ ...options, cursor });
    out.push(...page.episodes);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

function mostCommon(xs: string[]): string {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

/** Episodes that share timestamps in threes, so ordering must break ties by id. */
function withTies(eps: Episode[]): Episode[] {
  return eps.map((ep, i) => (i % 3 === 0 ? ep : { ...ep, createdAt: eps[i - (i % 3)].createdAt }));
}

export function describeStoreContract(name: string, open: () => Promise<EpisodeStore>): void {
  describe(`${name}: EpisodeStore contract`, () => {
    it('round-trips 2,000 random episodes through export and import without loss', async () => {
      const episodes = makeEpisodes(2000, 7);
      const source = await open();
      await source.putMany(episodes);
      const target = await open();
      const report = await target.importJsonl(source.exportJsonl());
      expect(report).toEqual({ imported: 2000, skippedDuplicates: 0, errors: [] });
      const back = (await collect(target.exportJsonl())).map((line) => JSON.parse(line) as Episode);
      expect(back.sort(byId)).toEqual([...episodes].sort(byId));
      expect(await target.count()).toBe(2000);
      await source.close();
      await target.close();
    });

    it('reports exactly the bad lines of an import and imports the rest, skipping duplicate ids', async () => {
      const [a, b, c, d] = makeEpisodes(4, 11);
      const missingTask: Record<string, unknown> = { ...b, id: 'no-task' };
      delete missingTask.task;
      const wrongType = JSON.parse(JSON.stringify({ ...c, id: 'bad-usage' }));
      wrongType.totals.usage.input = '12';
      const lines = [
        JSON.stringify(a), //                              1 ok
        '{"id": "broken", "version": 1,', //               2 bad JSON
        JSON.stringify(b), //                              3 ok
        JSON.stringify(missingTask), //                    4 missing field
        JSON.stringify({ ...c, id: 'v2', version: 2 }), // 5 wrong version
        '', //                                             6 blank: ignored
        JSON.stringify(wrongType), //                      7 wrong type
        JSON.stringify(a), //                              8 duplicate of line 1
        JSON.stringify(d), //                              9 ok
      ];
      const store = await open();
      const report = await store.importJsonl(lines.join('\n'));
      expect(report.errors.map((e) => e.line)).toEqual([2, 4, 5, 7]);
      expect(report.errors[0].message).toMatch(/not valid JSON/);
      expect(report.errors[1].message).toMatch(/^task: expected an object, got nothing/);
      expect(report.errors[2].message).toMatch(/^version: expected 1, got 2/);
      expect(report.errors[3].message).toMatch(/^totals\.usage\.input: expected a whole number >= 0, got "12"/);
      expect(report.imported).toBe(3);
      expect(report.skippedDuplicates).toBe(1);
      expect(await store.get(b.id)).toEqual(b);
      expect(await store.count()).toBe(3);

      const again = await store.importJsonl(lines.join('\n'));
      expect(again.imported).toBe(0);
      expect(again.skippedDuplicates).toBe(4);
      expect(await store.count()).toBe(3);
      await store.close();
    });

    it('pages through filtered episodes in both orders, ties broken by id, with exact cursors', async () => {
      const episodes = withTies(makeEpisodes(400, 3));
      const store = await open();
      await store.putMany(episodes);
      const times = episodes.map((e) => e.createdAt).sort();
      const [from, to] = [times[100], times[200]]; // bounds that fall on stored times, ties included
      const group = mostCommon(episodes.flatMap((e) => (e.group ? [e.group] : [])));
      const cases: { filter: Parameters<EpisodeStore['count']>[0]; keep: (e: Episode) => boolean }[] = [
        { filter: {}, keep: () => true },
        { filter: { dataset: 'gsm8k' }, keep: (e) => e.task.dataset === 'gsm8k' },
        { filter: { tag: 'train', correct: true }, keep: (e) => e.tags.includes('train') && e.reward?.correct === true },
        {
          filter: { workerId: 'claude', status: 'ok' },
          keep: (e) => e.status === 'ok' && [...e.steps, ...e.rounds.flatMap((r) => r.steps)].some((s) => s.workerId === 'claude'),
        },
        {
          filter: { conductorModel: 'qwen2.5-7b-instruct', correct: false },
          keep: (e) => e.conductor.model === 'qwen2.5-7b-instruct' && e.reward?.correct === false,
        },
        { filter: { group }, keep: (e) => e.group === group },
        { filter: { from, to }, keep: (e) => e.createdAt >= from && e.createdAt < to },
        {
          filter: { from: '2026-03-01T00:00:00.000Z', to: '2026-06-01T00:00:00.000Z', dataset: 'math500' },
          keep: (e) => e.createdAt >= '2026-03-01T00:00:00.000Z' && e.createdAt < '2026-06-01T00:00:00.000Z' && e.task.dataset === 'math500',
        },
      ];
      for (const { filter, keep } of cases) {
        const expected = episodes.filter(keep).sort(byTime);
        expect(expected.length).toBeGreaterThan(2);
        expect((await allPages(store, { filter, limit: 7, order: 'oldest' })).map((e) => e.id)).toEqual(expected.map((e) => e.id));
        expect((await allPages(store, { filter, limit: 13 })).map((e) => e.id)).toEqual(expected.reverse().map((e) => e.id));
        expect(await store.count(filter)).toBe(expected.length);
        expect((await store.stats(filter)).count).toBe(expected.length);
        expect((await collect(store.exportJsonl(filter))).length).toBe(expected.length);
      }
      await store.close();
    });

    it("filters by evaluation: exactly the episodes tagged with its id, another's and look-alike tags apart", async () => {
      const tagsOf = (i: number) => (i % 4 === 0 ? ['eval:a1', 'method:single:x'] : i % 4 === 1 ? ['eval:a10'] : i % 4 === 2 ? ['a1', 'eval'] : []);
      const episodes = makeEpisodes(90, 7).map((e, i) => ({ ...e, tags: [...e.tags, ...tagsOf(i)] }));
      const store = await open();
      await store.putMany(episodes);
      const mine = episodes.filter((_, i) => i % 4 === 0).sort(byTime);
      expect((await allPages(store, { filter: { evaluation: 'a1' }, limit: 7, order: 'oldest' })).map((e) => e.id)).toEqual(mine.map((e) => e.id));
      expect(await store.count({ evaluation: 'a1' })).toBe(mine.length);
      expect((await store.stats({ evaluation: 'a1' })).count).toBe(mine.length);
      expect((await collect(store.exportJsonl({ evaluation: 'a10' }))).length).toBe(episodes.filter((_, i) => i % 4 === 1).length);
      const right = mine.filter((e) => e.reward?.correct === true);
      expect(right.length).toBeGreaterThan(0);
      expect(await store.count({ evaluation: 'a1', correct: true })).toBe(right.length);
      expect(await store.count({ evaluation: 'nope' })).toBe(0);
      await store.close();
    });

    it('keeps a cursor exact while episodes are added: no repeats, no gaps', async () => {
      const episodes = makeEpisodes(60, 5, { days: 30 });
      const store = await open();
      await store.putMany(episodes);
      const first = await store.list({ limit: 20 });
      const rng = seededRandom(99);
      const newer = Array.from({ length: 5 }, (_, i) => makeEpisode(rng, { id: `newer-${i}`, createdAt: `2027-01-0${i + 1}T00:00:00.000Z` }));
      const older = Array.from({ length: 5 }, (_, i) => makeEpisode(rng, { id: `older-${i}`, createdAt: `2025-01-0${i + 1}T00:00:00.000Z` }));
      for (const ep of [...newer, ...older]) await store.put(ep);
      const rest = await allPages(store, { limit: 20, cursor: first.nextCursor! });
      const expected = [...episodes, ...older].sort(byTime).reverse().slice(20);
      expect([...first.episodes, ...rest].map((e) => e.id)).toEqual(
        [...episodes]
          .sort(byTime)
          .reverse()
          .slice(0, 20)
          .map((e) => e.id)
          .concat(expected.map((e) => e.id)),
      );
      await store.close();
    });

    it('gets, replaces, deletes and counts', async () => {
      const [a, b] = makeEpisodes(2, 21);
      const store = await open();
      await store.put(a);
      await store.put(b);
      expect(await store.get(a.id)).toEqual(a);
      const changed = { ...a, final: 'changed', tags: ['edited'] };
      await store.put(changed);
      expect(await store.get(a.id)).toEqual(changed);
      expect(await store.count()).toBe(2);
      expect(await store.count({ tag: 'edited' })).toBe(1);
      expect(await store.delete(a.id)).toBe(true);
      expect(await store.delete(a.id)).toBe(false);
      expect(await store.get(a.id)).toBeUndefined();
      expect((await collect(store.exportJsonl())).map((l) => JSON.parse(l).id)).toEqual([b.id]);
      await store.close();
    });

    it('refuses a malformed episode on put, naming the field', async () => {
      const [a] = makeEpisodes(1, 31);
      const store = await open();
      await expect(store.put({ ...a, createdAt: '2026-01-01' })).rejects.toMatchObject({ code: 'data/invalid', message: expect.stringContaining('createdAt') });
      expect(await store.count()).toBe(0);
      await store.close();
    });

    it('sums stats over a filter with unknown costs kept unknown', async () => {
      const episodes = makeEpisodes(150, 41);
      const store = await open();
      await store.putMany(episodes);
      const gsm = episodes.filter((e) => e.task.dataset === 'gsm8k');
      const stats = await store.stats({ dataset: 'gsm8k' });
      const graded = gsm.filter((e) => e.reward && !e.reward.infraError);
      expect(stats.count).toBe(gsm.length);
      expect(stats.graded).toBe(graded.length);
      expect(stats.correct).toBe(graded.filter((e) => e.reward!.correct).length);
      expect(stats.unknownCount).toBe(gsm.filter((e) => e.totals.costUsd === null).length);
      expect(stats.unknownCount).toBeGreaterThan(0);
      expect(stats.costUsd).toBeNull();
      expect(stats.knownCostUsd).toBeCloseTo(
        gsm.reduce((t, e) => t + (e.totals.costUsd ?? 0), 0),
        9,
      );
      expect(stats.tokens.output).toBe(gsm.reduce((t, e) => t + e.totals.usage.output, 0));
      const gptCalls = gsm.flatMap((e) => [...e.steps, ...e.rounds.flatMap((r) => r.steps)]).filter((s) => s.workerId === 'gpt');
      expect(stats.byWorker.gpt.calls).toBe(gptCalls.length);
      expect(stats.byWorker.gpt.costUsd).toBeCloseTo(
        gptCalls.reduce((t, s) => t + s.costUsd!, 0),
        9,
      );
      expect(stats.byWorker.local.costUsd).toBeNull();
      await store.close();
    });
  });
}
