/** How an evaluation's episodes are tagged, and read back for resume and reports. */
import { evaluationTag, type Episode } from '../../episodes/index.ts';

export interface RunKey {
  method: string;
  item: string;
  repeat: number;
}

export function evalTags(evalId: string, key: RunKey): string[] {
  return [evaluationTag(evalId), `method:${key.method}`, `item:${key.item}`, `repeat:${key.repeat}`];
}

const tagValue = (tags: readonly string[], name: string) => tags.find((t) => t.startsWith(`${name}:`))?.slice(name.length + 1);

/** The run an episode of evaluation `evalId` is, or undefined for an episode of anything else. */
export function runKeyOf(episode: Pick<Episode, 'tags'>, evalId: string): RunKey | undefined {
  if (tagValue(episode.tags, 'eval') !== evalId) return undefined;
  const method = tagValue(episode.tags, 'method');
  const item = tagValue(episode.tags, 'item');
  const repeat = Number(tagValue(episode.tags, 'repeat'));
  return method === undefined || item === undefined || !Number.isInteger(repeat) ? undefined : { method, item, repeat };
}

export const runKeyString = (k: RunKey) => JSON.stringify([k.method, k.item, k.repeat]);

/** A run that ended on its own: a Stop or a budget stop leaves it to be finished on resume. */
export const isFinished = (e: Pick<Episode, 'status'>) => e.status !== 'aborted' && e.status !== 'budget';
