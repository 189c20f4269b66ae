/**
 * Rewards that come from the user rather than a grader: a pick or a ranking among a comparison's episodes (one
 * GRPO group: the rank-1 episode scores 1, the others 0, less the cost term when the user set one), and a thumbs
 * up or down on a single answer. They are computeReward's outcomes with the pick as "correct", so a cost term,
 * a malformed plan and a failed run count as they do for graded runs (a failed run stays out of training).
 * Test: test/unit/core/episodes/choice-rewards.test.ts.
 */
import { BatonError } from '../errors/index.ts';
import { computeReward, type Reward, type RewardScheme } from '../reward/index.ts';
import type { Episode } from './types.ts';

/** A comparison's episodes carry this tag; an edited re-run adds EDITED_TAG, a fused answer carries FUSE_TAG alone. */
export const COMPARE_TAG = 'compare';
export const EDITED_TAG = 'edited';
export const FUSE_TAG = 'fuse';

/** Picked (or ranked first) scores 1, anything else 0: the group's spread is the user's choice. */
const PICK_SCHEME: Readonly<RewardScheme> = Object.freeze({ formatError: 0, wrong: 0, correct: 1 });

/** Which of a group's episodes a pick or ranking scores: the comparison's runs and edited re-runs, never a fused answer. */
export const isCandidate = (e: Pick<Episode, 'tags'>): boolean => e.tags.includes(COMPARE_TAG) && !e.tags.includes(FUSE_TAG);

/** Whether a run ended in a way that says nothing of its plan (a failed call, a spending stop, a stop by the user). */
const failed = (e: Pick<Episode, 'status'>): boolean => e.status === 'infra-error' || e.status === 'budget' || e.status === 'aborted';

/**
 * The rewards of a ranking: `ranking` lists episode ids best first (a pick is a ranking of one); every candidate
 * of `episodes` gets one, and those in the ranking keep their rank in the details (a pick: the picked one's 1).
 * `costWeight` (per dollar) takes weight x the run's dollars off (an unknown price counts as 0, as graded runs do).
 */
export function rankingRewards(episodes: readonly Episode[], ranking: readonly string[], costWeight = 0): Map<string, Reward> {
  const candidates = episodes.filter(isCandidate);
  const ids = new Set(candidates.map((e) => e.id));
  const unknown = ranking.find((id) => !ids.has(id));
  if (ranking.length === 0 || unknown !== undefined)
    throw new BatonError({ code: 'run/config', message: unknown ? `No run ${unknown} in this comparison to rank.` : 'Pick a run first.' });
  if (new Set(ranking).size !== ranking.length) throw new BatonError({ code: 'run/config', message: 'A ranking names each run once.' });
  if (!(Number.isFinite(costWeight) && costWeight >= 0))
    throw new BatonError({ code: 'run/config', message: `The cost weight is dollars off per dollar spent, a number >= 0; got ${costWeight}.` });
  const winner = candidates.find((e) => e.id === ranking[0])!;
  if (failed(winner) || winner.final.trim() === '')
    throw new BatonError({ code: 'run/config', message: 'That run has no answer to pick: pick one that finished.' });
  const scheme = { ...PICK_SCHEME, costWeight };
  return new Map(
    candidates.map((e) => {
      const rank = ranking.indexOf(e.id) + 1;
      const reward = computeReward({ parsed: e.status !== 'format-error', correct: rank === 1, infraError: failed(e), costUsd: e.totals.costUsd }, scheme);
      return [e.id, { ...reward, details: { source: 'pick', ...(rank > 0 ? { rank } : {}), ...(costWeight > 0 ? { costWeight } : {}) } }];
    }),
  );
}

/** A thumbs up (1) or down (0) on one answer. */
export const ratingReward = (up: boolean): Reward => ({ value: up ? 1 : 0, correct: up, format: true, details: { source: 'rating' } });

/** Where a reward came from: the user's pick or rating, or (undefined) a grader. */
export function choiceOf(reward: Reward | undefined): { source: 'pick'; rank?: number } | { source: 'rating'; up: boolean } | undefined {
  const d = reward?.details;
  if (d?.source === 'pick') return { source: 'pick', ...(typeof d.rank === 'number' ? { rank: d.rank } : {}) };
  if (d?.source === 'rating') return { source: 'rating', up: reward!.correct };
  return undefined;
}

/** The user's choice in a few words ("picked", "not picked", "ranked 3", "thumbs up"), for lists; undefined for a graded reward. */
export function choiceText(reward: Reward | undefined): string | undefined {
  const choice = choiceOf(reward);
  if (!choice) return undefined;
  if (choice.source === 'rating') return choice.up ? 'thumbs up' : 'thumbs down';
  if (reward!.infraError) return 'failed run';
  if (choice.rank === undefined) return 'not picked';
  return choice.rank === 1 ? 'picked' : `ranked ${choice.rank}`;
}
