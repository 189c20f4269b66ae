import type { Episode } from './types.ts';

/** The tag of every episode an evaluation ran (core/bench's runner and the Evaluate page tag them so). */
export const evaluationTag = (evalId: string): string => `eval:${evalId}`;

/** Which episodes a query covers. Every field narrows; `from` is inclusive, `to` exclusive (ISO times). */
export interface EpisodeFilter {
  dataset?: string;
  tag?: string;
  /** Episodes an evaluation ran, by its id (tagged evaluationTag(id)). */
  evaluation?: string;
  group?: string;
  /** The turns of one of the Ask page's conversations, by its id. */
  conversation?: string;
  conductorModel?: string;
  /** Episodes in which this worker was called (a step in any round), not merely in the pool. */
  workerId?: string;
  /** Graded right (true) or wrong (false); episodes without a reward match neither. */
  correct?: boolean;
  status?: Episode['status'];
  from?: string;
  to?: string;
}

/** The few fields of an episode that filters and ordering read: small enough to keep for every episode. */
export interface EpisodeKeys {
  id: string;
  createdAt: string;
  dataset?: string;
  tags: string[];
  group?: string;
  conversation?: string;
  conductorModel: string;
  workerIds: string[];
  correct?: boolean;
  status: Episode['status'];
}

export function episodeKeys(ep: Episode): EpisodeKeys {
  const workerIds = new Set<string>();
  for (const step of ep.steps) workerIds.add(step.workerId);
  for (const round of ep.rounds) for (const step of round.steps) workerIds.add(step.workerId);
  return {
    id: ep.id,
    createdAt: ep.createdAt,
    dataset: ep.task.dataset,
    tags: ep.tags,
    group: ep.group,
    conversation: ep.conversation?.id,
    conductorModel: ep.conductor.model,
    workerIds: [...workerIds],
    correct: ep.reward?.correct,
    status: ep.status,
  };
}

export function matchesFilter(keys: EpisodeKeys, f: EpisodeFilter): boolean {
  return (
    (f.dataset === undefined || keys.dataset === f.dataset) &&
    (f.tag === undefined || keys.tags.includes(f.tag)) &&
    (f.evaluation === undefined || keys.tags.includes(evaluationTag(f.evaluation))) &&
    (f.group === undefined || keys.group === f.group) &&
    (f.conversation === undefined || keys.conversation === f.conversation) &&
    (f.conductorModel === undefined || keys.conductorModel === f.conductorModel) &&
    (f.workerId === undefined || keys.workerIds.includes(f.workerId)) &&
    (f.correct === undefined || keys.correct === f.correct) &&
    (f.status === undefined || keys.status === f.status) &&
    (f.from === undefined || keys.createdAt >= f.from) &&
    (f.to === undefined || keys.createdAt < f.to)
  );
}
