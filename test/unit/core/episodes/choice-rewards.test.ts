import { describe, expect, it } from 'vitest';
import { choiceText, episodeToLine, rankingRewards, ratingReward, type Episode } from '../../../../src/core/episodes/index.ts';
import { groupsFromEpisodes } from '../../../../src/core/rl/index.ts';
import { seededRandom } from '../../../../src/core/random.ts';
import { makeEpisode } from '../../../support/episode-factory.ts';

const rng = seededRandom(24);

/** A comparison's member: an ok run costing `costUsd`, with an answer. */
function member(id: string, costUsd: number | null, extra: Partial<Episode> = {}): Episode {
  const base = makeEpisode(rng, { id });
  const { reward: _, parseError: __, ...rest } = base;
  return {
    ...rest,
    workflow: { steps: [{ worker: 0, subtask: 'Solve it.', access: [] }] },
    final: `answer of ${id}`,
    group: 'g1',
    tags: ['compare'],
    status: 'ok',
    totals: { ...base.totals, costUsd },
    ...extra,
  };
}

const group = (): Episode[] => [
  member('a', 0.5),
  member('b', 0.25),
  member('c', null),
  member('d', 0.1, { tags: ['compare', 'edited'] }),
  member('f', 0.02, { tags: ['fuse'] }),
];

describe('rankingRewards', () => {
  it('scores a pick 1 and the other candidates 0, leaving the fused answer out', () => {
    const rewards = rankingRewards(group(), ['b']);
    expect([...rewards.keys()]).toEqual(['a', 'b', 'c', 'd']);
    expect(rewards.get('b')).toEqual({ value: 1, correct: true, format: true, details: { source: 'pick', rank: 1 } });
    for (const id of ['a', 'c', 'd']) expect(rewards.get(id)).toEqual({ value: 0, correct: false, format: true, details: { source: 'pick' } });
  });

  it('keeps each rank of a ranking in the details; only the first scores 1', () => {
    const rewards = rankingRewards(group(), ['d', 'a', 'c', 'b']);
    expect([...rewards.values()].map((r) => [r.value, r.details?.rank])).toEqual([
      [0, 2],
      [0, 4],
      [0, 3],
      [1, 1],
    ]);
  });

  it('takes the cost term off every candidate, an unknown price counting 0', () => {
    const rewards = rankingRewards(group(), ['a'], 2);
    expect(rewards.get('a')).toEqual({ value: 1 - 2 * 0.5, correct: true, format: true, details: { source: 'pick', rank: 1, costWeight: 2 } });
    expect(rewards.get('b')!.value).toBe(-0.5);
    expect(rewards.get('c')!.value).toBe(0);
    expect(rewards.get('d')!.value).toBeCloseTo(-0.2, 12);
  });

  it('marks a failed run as an infrastructure failure and a malformed plan as unformatted', () => {
    const episodes = [
      member('a', 0.1),
      member('down', 0.1, { status: 'infra-error', final: '' }),
      member('bad', 0, { status: 'format-error', final: '', workflow: undefined, parseError: 'no lists' }),
    ];
    const rewards = rankingRewards(episodes, ['a']);
    expect(rewards.get('down')).toEqual({ value: 0, correct: false, format: true, infraError: true, details: { source: 'pick' } });
    expect(rewards.get('bad')).toEqual({ value: 0, correct: false, format: false, details: { source: 'pick' } });
    expect(() => rankingRewards(episodes, ['down'])).toThrow(/no answer to pick/);
  });

  it('refuses rankings that name a run outside the comparison, a run twice, or nothing', () => {
    expect(() => rankingRewards(group(), ['f'])).toThrow(/No run f/);
    expect(() => rankingRewards(group(), ['a', 'a'])).toThrow(/each run once/);
    expect(() => rankingRewards(group(), [])).toThrow(/Pick a run/);
    expect(() => rankingRewards(group(), ['a'], -1)).toThrow(/>= 0/);
  });

  it('makes a group that offline GRPO reads as one training group, the fused answer left out', async () => {
    const episodes = group();
    const rewards = rankingRewards(episodes, ['c', 'a']);
    const stored = episodes.map((e) => (rewards.has(e.id) ? { ...e, reward: rewards.get(e.id)! } : e));
    const tokenizer = { promptIds: () => [1, 2, 3], encode: (text: string) => [...text].map((c) => c.charCodeAt(0)) };
    const { groups, report } = await groupsFromEpisodes(stored.map(episodeToLine).join('\n'), 'picks', tokenizer);
    expect(groups.map((g) => [g.id, g.completions.map((c) => c.reward)])).toEqual([['g1', [0, 0, 1, 0]]]);
    expect(report).toMatchObject({ episodes: 5, groups: 1, unrewarded: 1 });
  });
});

it('words the choices a reward records', () => {
  const rewards = rankingRewards(group(), ['b', 'a']);
  expect(['a', 'b', 'c'].map((id) => choiceText(rewards.get(id)))).toEqual(['ranked 2', 'picked', 'not picked']);
  expect([choiceText(ratingReward(true)), choiceText(ratingReward(false))]).toEqual(['thumbs up', 'thumbs down']);
  expect(ratingReward(false)).toEqual({ value: 0, correct: false, format: true, details: { source: 'rating' } });
  expect(choiceText({ value: 1, correct: true, format: true, details: { gold: '4' } })).toBeUndefined();
});
