/**
 * The user's choices as groups: comparisons with one pick, oldest first, split by time; rated answers
 * to one prompt as a group; fused answers, edited re-runs, failed runs and groups that teach nothing left
 * out; and the episodes offline GRPO reads.
 */
import { describe, expect, it } from 'vitest';
import type { Episode } from '../../../../src/core/episodes/index.ts';
import { seededRandom } from '../../../../src/core/random.ts';
import { choiceEpisodes, splitPicksByTime, userChoices } from '../../../../src/core/rl/index.ts';
import { makeEpisode } from '../../../support/episode-factory.ts';
import { pickedComparison, ratedAnswer } from '../../../support/user-picks.ts';

const rng = seededRandom(24);
const base = (question: string): Episode => {
  const { group: _, ...e } = makeEpisode(rng);
  return { ...e, status: 'ok', tags: [], task: { ...e.task, question }, prompt: [{ role: 'user', content: question }] };
};
const comparison = (q: number, picked: number, minute: number, size = 3): Episode[] =>
  pickedComparison(
    Array.from({ length: size }, (_, i) => ({ ...base(`q${q}`), id: `q${q}-${i}` })),
    picked,
    { group: `cmp-${q}`, createdAt: new Date(Date.UTC(2026, 11, 1, 9, minute)).toISOString() },
  );

describe('userChoices', () => {
  it('takes comparisons with one pick, oldest first, and leaves out what the Conductor did not write', () => {
    const late = comparison(1, 2, 30);
    const early = comparison(2, 0, 10);
    const fused = { ...base('q2'), id: 'fused', group: 'cmp-2', tags: ['fuse', 'compare'], reward: early[1].reward };
    const edited = { ...early[1], id: 'edited', tags: ['compare', 'edited'] };
    const failed = { ...early[2], id: 'failed', status: 'infra-error' as const };
    const lonely = comparison(3, 0, 20, 1);
    const { picks, ratings } = userChoices([...late, ...early, fused, edited, failed, ...lonely, base('unrated')]);
    expect(picks.map((p) => [p.id, p.picked.id, p.members.length])).toEqual([
      ['cmp-2', 'q2-0', 3],
      ['cmp-1', 'q1-2', 3],
    ]);
    expect(ratings).toEqual([]);
  });

  it('groups rated answers to the same prompt when they were rated differently', () => {
    const a = ratedAnswer({ ...base('same'), id: 'a' }, true);
    const b = ratedAnswer({ ...base('same'), id: 'b', group: 'other' }, false);
    const c = ratedAnswer({ ...base('alike'), id: 'c' }, true);
    const d = ratedAnswer({ ...base('alike'), id: 'd' }, true);
    const { ratings } = userChoices([a, b, c, d]);
    expect(ratings.map((g) => g.map((e) => e.id))).toEqual([['a', 'b']]);
    const episodes = choiceEpisodes([], ratings);
    expect(new Set(episodes.map((e) => e.group)).size).toBe(1);
    expect(episodes[0].group).toMatch(/^rating:/);
  });

  it('holds out the latest picks, never all of them', () => {
    const picks = userChoices(Array.from({ length: 8 }, (_, q) => comparison(q, 1, q)).flat()).picks;
    const split = splitPicksByTime(picks, 0.25);
    expect(split.train.map((p) => p.id)).toEqual(['cmp-0', 'cmp-1', 'cmp-2', 'cmp-3', 'cmp-4', 'cmp-5']);
    expect(split.heldOut.map((p) => p.id)).toEqual(['cmp-6', 'cmp-7']);
    expect(splitPicksByTime(picks.slice(0, 2), 0.25).heldOut).toHaveLength(1);
    expect(splitPicksByTime(picks.slice(0, 1), 0.25)).toEqual({ train: picks.slice(0, 1), heldOut: [] });
  });
});
