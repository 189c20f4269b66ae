/**
 * The user's own choices as GRPO groups ("train on my choices" on the Train page). A comparison's
 * episodes share a group id and carry the pick as their reward (details.source 'pick': the picked
 * workflow 1 and `correct`, the others 0, each less the run's cost term when the user set one). A thumbs
 * up or down on a single answer (details.source 'rating') joins the other rated answers to the same
 * Conductor prompt: rated more than once, differently, they are a group too. A fused answer ('fuse') and
 * an edited re-run ('edited') are left out: neither is a plan the Conductor wrote. Pick groups come
 * oldest first, so that the latest can be held out: a trained Conductor is checked on the user's own
 * later picks (core/conductor's pick-agreement.ts) before it replaces the current one.
 * Test: test/unit/core/rl/user-choices.test.ts.
 */
import type { Episode } from '../episodes/index.ts';
import { hashString } from '../random.ts';

/** One comparison the user picked in, with the workflow picked. */
export interface PickGroup {
  id: string;
  /** When its last run was stored: picks are ordered, and held out, by it. */
  createdAt: string;
  members: Episode[];
  picked: Episode;
}

export interface UserChoices {
  /** Oldest first. */
  picks: PickGroup[];
  /** Rated answers to one prompt, two or more rated differently. */
  ratings: Episode[][];
}

/** Tags of episodes in a comparison's group that the Conductor did not write. */
const NOT_CONDUCTOR_PLANS = ['fuse', 'edited'];

const sourceOf = (e: Episode): unknown => e.reward?.details?.source;

const teaches = (members: readonly Episode[]) => members.length >= 2 && members.some((e) => e.reward!.value !== members[0].reward!.value);

function byKey(episodes: readonly Episode[], key: (e: Episode) => string): Map<string, Episode[]> {
  const groups = new Map<string, Episode[]>();
  for (const e of episodes) groups.set(key(e), [...(groups.get(key(e)) ?? []), e]);
  return groups;
}

export function userChoices(episodes: Iterable<Episode>): UserChoices {
  const usable = [...episodes].filter(
    (e) => e.reward !== undefined && !e.reward.infraError && e.status !== 'infra-error' && !e.tags.some((t) => NOT_CONDUCTOR_PLANS.includes(t)),
  );
  const picks: PickGroup[] = [];
  for (const [id, members] of byKey(
    usable.filter((e) => sourceOf(e) === 'pick' && e.group !== undefined),
    (e) => e.group!,
  )) {
    const picked = members.filter((e) => e.reward!.correct);
    // One workflow picked (or ranked first): the held-out check compares a plan with it.
    if (picked.length === 1 && teaches(members))
      picks.push({ id, createdAt: members.map((e) => e.createdAt).reduce((a, b) => (a > b ? a : b)), members, picked: picked[0] });
  }
  picks.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  const rated = byKey(
    usable.filter((e) => sourceOf(e) === 'rating'),
    (e) => JSON.stringify(e.prompt),
  );
  return { picks, ratings: [...rated.values()].filter(teaches) };
}

/** The latest `share` of the picks held out (at least one, once there are two), the earlier ones to train on. */
export function splitPicksByTime(picks: readonly PickGroup[], share: number): { train: PickGroup[]; heldOut: PickGroup[] } {
  const held = picks.length < 2 ? 0 : Math.min(picks.length - 1, Math.max(1, Math.round(picks.length * share)));
  return { train: picks.slice(0, picks.length - held), heldOut: picks.slice(picks.length - held) };
}

/**
 * The episodes offline GRPO reads (groupsOfEpisodes): the picks' members as stored, and each rated
 * prompt's answers as one group, whatever group they were run in.
 */
export function choiceEpisodes(picks: readonly PickGroup[], ratings: readonly Episode[][]): Episode[] {
  return [
    ...picks.flatMap((p) => p.members),
    ...ratings.flatMap((members) => {
      const group = `rating:${hashString(JSON.stringify(members[0].prompt)).toString(36)}`;
      return members.map((e) => ({ ...e, group }));
    }),
  ];
}
