import { hashString } from '../../random.ts';
import type { Task } from '../../task.ts';

export interface ExpertsTaskOptions {
  /** Questions taken of each kind (default 150). */
  perKind?: number;
  /** Share of them held out for evaluation (default 0.2). */
  heldOutShare?: number;
  seed?: number;
}

export interface TaskSplit {
  train: Task[];
  heldOut: Task[];
}

/** Tasks ordered by a hash of (seed, dataset, item): a seeded shuffle that does not depend on the input's order. */
const bySeededHash = (tasks: readonly Task[], seed: number) =>
  tasks
    .map((t, i) => ({ t, key: hashString(`${seed} ${t.dataset ?? ''} ${t.itemId ?? i}`) }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.t);

/**
 * The experts pool's task set: perKind multiple-choice questions (MMLU) and perKind arithmetic ones
 * (GSM8K), drawn and split into train and held-out by the seed alone, each kind split in the same
 * proportion. The caller loads the datasets (core/bench/datasets' loaders over data/ files).
 */
export function expertsTaskSet(mcq: readonly Task[], arithmetic: readonly Task[], options: ExpertsTaskOptions = {}): TaskSplit {
  const perKind = options.perKind ?? 150;
  const seed = options.seed ?? 0;
  const held = Math.round(perKind * (options.heldOutShare ?? 0.2));
  const kinds = [mcq, arithmetic].map((tasks) => bySeededHash(tasks, seed).slice(0, perKind));
  return {
    train: bySeededHash(kinds.flatMap((k) => k.slice(held)), seed),
    heldOut: kinds.flatMap((k) => k.slice(0, held)),
  };
}
