import { hashString, seededRandom } from '../../random.ts';
import type { Task, TaskSplit } from '../../task.ts';

interface ExpertsTaskOptions {
  /** Questions taken of each kind (default 150). */
  perKind?: number;
  /** Share of them held out for evaluation (default 0.2). */
  heldOutShare?: number;
  seed?: number;
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
 * proportion. The caller loads the datasets (builtInTaskSet reads them from data/).
 */
export function expertsTaskSet(mcq: readonly Task[], arithmetic: readonly Task[], options: ExpertsTaskOptions = {}): TaskSplit {
  const perKind = options.perKind ?? 150;
  const seed = options.seed ?? 0;
  const held = Math.round(perKind * (options.heldOutShare ?? 0.2));
  const kinds = [mcq, arithmetic].map((tasks) => bySeededHash(tasks, seed).slice(0, perKind));
  return {
    train: bySeededHash(
      kinds.flatMap((k) => k.slice(held)),
      seed,
    ),
    heldOut: kinds.flatMap((k) => k.slice(0, held)),
  };
}

/**
 * Short generated questions of the experts pool's two kinds, for training runs that must be cheap (a
 * small Conductor on a software GPU, the CI learning test): sums of two numbers ('number') and "which
 * is largest" multiple choice ('mcq'), a dozen tokens each where MMLU and GSM8K questions run to a
 * hundred and more. What a Conductor must learn is the same: which kind a question is, hence which
 * worker to send it to. perKind of each kind, heldOutShare of them held out, all drawn from the seed.
 */
export function shortExpertsTaskSet(options: ExpertsTaskOptions = {}): TaskSplit {
  const perKind = options.perKind ?? 150;
  const seed = options.seed ?? 0;
  const random = seededRandom(hashString(`short experts ${seed}`));
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const sums = Array.from({ length: perKind }, (_, i): Task => {
    const [a, b] = [int(10, 99), int(10, 99)];
    return { question: `What is ${a} + ${b}?`, answer: String(a + b), kind: 'number', dataset: 'short-sums', itemId: String(i) };
  });
  const largest = Array.from({ length: perKind }, (_, i): Task => {
    const values = new Set<number>();
    while (values.size < 4) values.add(int(1, 99));
    const choices = [...values].map(String);
    const best = choices.indexOf(String(Math.max(...values)));
    const options = choices.map((c, k) => `${'ABCD'[k]}. ${c}`).join(' ');
    return { question: `Which is largest? ${options}`, answer: 'ABCD'[best], kind: 'mcq', choices, dataset: 'short-largest', itemId: String(i) };
  });
  const split = expertsTaskSet(largest, sums, { perKind, seed, ...(options.heldOutShare === undefined ? {} : { heldOutShare: options.heldOutShare }) });
  // An evaluation needs item ids distinct across both kinds. They are named after the split, which hashes the
  // old ids: each seed keeps the split the demo Conductor was trained and measured on.
  const named = (tasks: Task[]) => tasks.map((t) => ({ ...t, itemId: `${t.dataset}/${t.itemId}` }));
  return { train: named(split.train), heldOut: named(split.heldOut) };
}
