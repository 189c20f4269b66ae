import { describe, expect, it } from 'vitest';
import { IdbConversationStore, IdbEpisodeStore, importEpisodes, titleFrom, type Conversation, type Episode } from '../../../../src/core/episodes/index.ts';
import { excerptOf } from '../../../../src/core/episodes/conversation.ts';
import { makeEpisodes } from '../../../support/episode-factory.ts';
import { freshIndexedDb } from './fake-idb.ts';

const conversation = (id: string, title: string, updatedAt: string): Conversation => ({ id, title, createdAt: '2026-01-01T00:00:00.000Z', updatedAt });

/** `n` episodes as the turns of conversation `id`, in the order asked. */
function turnsOf(id: string, episodes: Episode[]): Episode[] {
  return episodes.map((ep, turn) => ({ ...ep, createdAt: new Date(Date.UTC(2026, 0, 2, 0, turn)).toISOString(), conversation: { id, turn } }));
}

async function openBoth(idb = freshIndexedDb()) {
  return { idb, episodes: await IdbEpisodeStore.open(idb), conversations: await IdbConversationStore.open(idb) };
}

describe('the conversation store', () => {
  it('lists the latest first, finds by title in any case, renames and reads its turns in order', async () => {
    const { episodes, conversations } = await openBoth();
    await conversations.put(conversation('a', 'Arithmetic practice', '2026-01-03T00:00:00.000Z'));
    await conversations.put(conversation('b', 'Planets', '2026-01-05T00:00:00.000Z'));
    expect((await conversations.list()).map((c) => c.id)).toEqual(['b', 'a']);
    expect((await conversations.list('  ARITH ')).map((c) => c.id)).toEqual(['a']);
    expect(await conversations.list('nothing like it')).toEqual([]);

    const [x, y, z, other] = makeEpisodes(4, 5);
    const turns = turnsOf('a', [x, y, z]);
    await episodes.putMany([...turns.slice().reverse(), other]);
    expect((await conversations.turns('a')).map((e) => e.conversation?.turn)).toEqual([0, 1, 2]);
    expect(await conversations.turns('b')).toEqual([]);
    // The same turns through the episode store's filter, which the Episodes page can use.
    expect((await episodes.list({ filter: { conversation: 'a' }, order: 'oldest' })).episodes.map((e) => e.id)).toEqual(turns.map((e) => e.id));

    await conversations.put({ ...(await conversations.get('a'))!, title: 'Renamed' });
    expect((await conversations.get('a'))?.title).toBe('Renamed');
  });

  it("search finds the words in any turn's question or final answer, any case, with where; empty lists all", async () => {
    const { episodes, conversations } = await openBoth();
    await conversations.put(conversation('a', 'Arithmetic', '2026-01-03T00:00:00.000Z'));
    await conversations.put(conversation('b', 'Planets', '2026-01-05T00:00:00.000Z'));
    await conversations.put(conversation('c', 'Mars facts', '2026-01-04T00:00:00.000Z'));
    const [x, y, z, w, other] = makeEpisodes(5, 7);
    const turn = (ep: Episode, question: string, final: string) => ({ ...ep, task: { ...ep.task, question }, final });
    await episodes.putMany([
      ...turnsOf('a', [turn(x, 'What is 17 × 23?', 'It is <answer>391</answer>.'), turn(y, 'And twice that?', 'Twice that is <answer>782</answer>.')]),
      ...turnsOf('b', [turn(z, 'Which planet is red?', 'Mars, for the iron oxide on its surface.')]),
      ...turnsOf('c', [turn(w, 'How far is Mars?', 'About 225 million km on average.')]),
      // Not a turn of any conversation: never found.
      turn(other, 'Unrelated 782', 'Nothing 782'),
    ]);
    const found = async (search: string) => (await conversations.list(search)).map((c) => [c.id, c.excerpt]);
    // A later turn's final answer, without its answer tags; a question, in another case.
    expect(await found('782')).toEqual([['a', 'Twice that is 782.']]);
    expect(await found('  WHICH PLANET ')).toEqual([['b', 'Which planet is red?']]);
    // By title and by a turn, the latest first; a title match needs no excerpt.
    expect(await found('mars')).toEqual([
      ['b', 'Mars, for the iron oxide on its surface.'],
      ['c', undefined],
    ]);
    expect(await found('nowhere at all')).toEqual([]);
    expect((await conversations.list('  ')).map((c) => c.id)).toEqual(['b', 'c', 'a']);
  });

  it('an excerpt is the match with a little either side, on one line', () => {
    const long = `${'word '.repeat(20)}the needle\nis\there ${'more '.repeat(30)}`;
    const excerpt = excerptOf(['no match here', long], 'needle')!;
    expect(excerpt).toMatch(/^…(word )+the needle is here (more )+/);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThan(100);
    expect(excerptOf(['Short <answer>42</answer>'], '42')).toBe('Short 42');
    expect(excerptOf(['x'], 'y')).toBeUndefined();
  });

  it('removes a conversation with its turns and nothing else', async () => {
    const { episodes, conversations } = await openBoth();
    await conversations.put(conversation('a', 'A', '2026-01-03T00:00:00.000Z'));
    await conversations.put(conversation('b', 'B', '2026-01-04T00:00:00.000Z'));
    const all = makeEpisodes(5, 9);
    await episodes.putMany([...turnsOf('a', all.slice(0, 2)), ...turnsOf('b', all.slice(2, 4)), all[4]]);
    expect(await conversations.remove('a')).toBe(2);
    expect((await conversations.list()).map((c) => c.id)).toEqual(['b']);
    expect(await episodes.count()).toBe(3);
    expect((await conversations.turns('b')).length).toBe(2);
    expect(await episodes.get(all[4].id)).toEqual(all[4]);
  });

  it('export carries the conversations of the exported turns; import restores them beside the episodes, once', async () => {
    const from = await openBoth();
    await from.conversations.put(conversation('a', 'Arithmetic', '2026-01-03T00:00:00.000Z'));
    await from.conversations.put(conversation('unused', 'No turns', '2026-01-03T00:00:00.000Z'));
    const all = makeEpisodes(3, 11);
    await from.episodes.putMany([...turnsOf('a', all.slice(0, 2)), all[2]]);
    const lines: string[] = [];
    for await (const line of from.episodes.exportJsonl()) lines.push(line);
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ type: 'conversation', ...conversation('a', 'Arithmetic', '2026-01-03T00:00:00.000Z') });

    const to = await openBoth();
    expect(await to.episodes.importJsonl(lines.join('\n'))).toEqual({ imported: 3, skippedDuplicates: 0, errors: [], conversations: 1 });
    expect(await to.conversations.list()).toEqual([conversation('a', 'Arithmetic', '2026-01-03T00:00:00.000Z')]);
    expect((await to.conversations.turns('a')).map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const again = await to.episodes.importJsonl(lines.join('\n'));
    expect(again).toMatchObject({ imported: 0, skippedDuplicates: 3, conversations: 0 });
    // A conversation line that is not one is a bad line, named; the rest still imports.
    const bad = await (await openBoth()).episodes.importJsonl(`${lines[0]}\n{"type":"conversation","id":"x","title":3}`);
    expect(bad.imported).toBe(1);
    expect(bad.errors).toEqual([{ line: 2, message: 'conversation title: expected a string, got 3' }]);
  });

  it('a database of the previous version upgrades with every episode kept, and then holds conversations', async () => {
    const idb = freshIndexedDb();
    const episodes = makeEpisodes(30, 3);
    const v2 = await IdbEpisodeStore.open({ ...idb, version: 2 });
    await v2.putMany(episodes);
    await v2.close();
    const { episodes: store, conversations } = await openBoth(idb);
    expect(await store.count()).toBe(30);
    for (const ep of episodes) expect(await store.get(ep.id)).toEqual(ep);
    await conversations.put(conversation('a', 'After the upgrade', '2026-01-03T00:00:00.000Z'));
    expect((await conversations.list()).map((c) => c.title)).toEqual(['After the upgrade']);
  });

  it('titles a conversation by the start of its first question, on one line', () => {
    expect(titleFrom('  What is\n17 × 23? ')).toBe('What is 17 × 23?');
    expect(titleFrom('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`);
    expect(titleFrom('   ')).toBe('New conversation');
  });
});

describe('importing conversation lines where the store keeps no conversations (the CLI)', () => {
  it('passes them over: no error, no count, the episodes imported', async () => {
    const [ep] = makeEpisodes(1, 21);
    const stored: Episode[] = [];
    const report = await importEpisodes(
      `${JSON.stringify(ep)}\n{"type":"conversation","id":"a","title":"T","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z"}\n`,
      {
        existingIds: async () => new Set(),
        putMany: async (eps) => void stored.push(...eps),
      },
    );
    expect(report).toEqual({ imported: 1, skippedDuplicates: 0, errors: [] });
    expect(stored).toEqual([ep]);
  });
});
