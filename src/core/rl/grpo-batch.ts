/**
 * The batch one GRPO step trains on, as `baton grpo-step --batch FILE` reads it:
 *   {"groups":[{"prompt_ids":[..],"completions":[{"ids":[..],"reward":r,"old_logprobs":[..]}]}]}
 * old_logprobs (one per completion token, at the sampling temperature) are those of the policy that
 * sampled the completions; give them for every completion (mu > 1 updates on one batch) or for none
 * (mu = 1: the ratio is 1, as TRL). Fields beyond these are ignored. Every problem is a BatonError
 * 'data/invalid' naming the group and completion. Test: test/unit/core/rl/grpo-batch.test.ts.
 */
import { BatonError } from '../errors/index.ts';

interface GrpoBatchCompletion {
  ids: number[];
  reward: number;
  oldLogprobs?: number[];
  /** Which tokens the loss counts (GrpoLossSequence.mask); absent: all. */
  mask?: number[];
}

export interface GrpoBatchGroup {
  promptIds: number[];
  completions: GrpoBatchCompletion[];
}

export interface GrpoBatch {
  groups: GrpoBatchGroup[];
}

/** One completion laid out for the model: logprobs of ids[completionStart..] are the loss's tokens. */
export interface GrpoSequence {
  /** prompt ids ++ completion ids. */
  ids: number[];
  /** Index in ids of the first completion token (the prompt's length). */
  completionStart: number;
  /** Index of its group in the batch. */
  group: number;
  reward: number;
  oldLogprobs?: number[];
  mask?: number[];
}

const invalid = (message: string): never => {
  throw new BatonError({ code: 'data/invalid', message });
};

/** A JSON value as a message shows it: numbers as JavaScript writes them (Infinity, NaN), absent as such. */
const show = (v: unknown): string => (typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? 'absent'));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function tokenIds(value: unknown, where: string, field: string): number[] {
  if (!Array.isArray(value)) return invalid(`${where}: ${field} must be an array of token ids.`);
  if (value.length === 0) return invalid(`${where}: ${field} is empty; it needs at least one token.`);
  const bad = value.findIndex((id) => !Number.isSafeInteger(id) || id < 0);
  if (bad >= 0) return invalid(`${where}: ${field}[${bad}] is ${show(value[bad])}, not a non-negative integer token id.`);
  return value as number[];
}

function completion(value: unknown, where: string): GrpoBatchCompletion {
  if (!isObject(value)) return invalid(`${where} must be an object {"ids", "reward", "old_logprobs"?}.`);
  const ids = tokenIds(value.ids, where, 'ids');
  const reward = value.reward;
  if (typeof reward !== 'number' || !Number.isFinite(reward)) return invalid(`${where}: reward ${show(reward)} is not a finite number.`);
  if (value.old_logprobs === undefined) return { ids, reward };
  const old = value.old_logprobs;
  if (!Array.isArray(old)) return invalid(`${where}: old_logprobs must be an array of numbers.`);
  if (old.length !== ids.length) return invalid(`${where}: ${old.length} old_logprobs for ${ids.length} ids; give one per completion token.`);
  const bad = old.findIndex((lp) => typeof lp !== 'number' || !Number.isFinite(lp));
  if (bad >= 0) return invalid(`${where}: old_logprobs[${bad}] is ${show(old[bad])}, not a finite number.`);
  return { ids, reward, oldLogprobs: old as number[] };
}

function group(value: unknown, g: number): GrpoBatchGroup {
  const where = `Group ${g}`;
  if (!isObject(value)) return invalid(`${where} must be an object {"prompt_ids", "completions"}.`);
  const promptIds = tokenIds(value.prompt_ids, where, 'prompt_ids');
  if (!Array.isArray(value.completions) || value.completions.length === 0) return invalid(`${where}: completions must be a non-empty array.`);
  return { promptIds, completions: value.completions.map((c, i) => completion(c, `Group ${g}, completion ${i}`)) };
}

/** Checks a parsed batch and converts it to Baton's names. */
export function validateGrpoBatch(value: unknown): GrpoBatch {
  if (!isObject(value) || !Array.isArray(value.groups)) return invalid('A GRPO batch is an object {"groups": [...]}.');
  if (value.groups.length === 0) return invalid('The batch has no groups.');
  const groups = value.groups.map(group);
  const all = groups.flatMap((gr, g) => gr.completions.map((c, i) => ({ g, i, has: c.oldLogprobs !== undefined })));
  const withOld = all.find((c) => c.has);
  const withoutOld = all.find((c) => !c.has);
  if (withOld && withoutOld) {
    invalid(
      `Group ${withOld.g}, completion ${withOld.i} has old_logprobs but group ${withoutOld.g}, completion ${withoutOld.i} has none: give them for every completion or for none.`,
    );
  }
  return { groups };
}

/** Parses the JSON text of a batch file. */
export function parseGrpoBatch(text: string): GrpoBatch {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new BatonError({ code: 'data/invalid', message: `The GRPO batch is not valid JSON: ${(cause as Error).message}`, cause });
  }
  return validateGrpoBatch(value);
}

/** Every completion as a sequence to score, in group order then completion order. */
export function flattenGrpoBatch(batch: GrpoBatch): GrpoSequence[] {
  return batch.groups.flatMap((gr, g) =>
    gr.completions.map((c) => ({
      ids: [...gr.promptIds, ...c.ids],
      completionStart: gr.promptIds.length,
      group: g,
      reward: c.reward,
      ...(c.oldLogprobs ? { oldLogprobs: c.oldLogprobs } : {}),
      ...(c.mask ? { mask: c.mask } : {}),
    })),
  );
}

/** rewards[g][i], the shape groupAdvantages takes. */
export function groupRewards(batch: GrpoBatch): number[][] {
  return batch.groups.map((gr) => gr.completions.map((c) => c.reward));
}
