/**
 * A tiny data/ in the shape of data/zeroeval and data/routerbench (data/README.md): three models at three
 * prices on a handful of questions, each model right on known ones, for tests of the recorded pools, their
 * task sets and the cost-quality measurement. `dear` is right on everything, `mid` on the arithmetic ones,
 * `cheap` on the multiple-choice ones; RouterBench's questions carry its own split.
 */
import { lazyDataFiles, type DataFiles } from '../../src/core/bench/index.ts';

export const RECORDED_MODELS = [
  { id: 'org/Dear-1', model: 'dear-1', label: 'Dear', price: { input: 10, output: 30 }, priceSource: 'test', tokens: 'test' },
  { id: 'mid-2', model: 'mid-2', label: 'Mid', price: { input: 1, output: 2 }, priceSource: 'test', tokens: 'test' },
  { id: 'cheap-3', model: 'cheap-3', label: 'Cheap', price: { input: 0.1, output: 0.1 }, priceSource: 'test', tokens: 'test' },
];

const usd = [(100 * 10 + 50 * 30) / 1e6, (100 * 1 + 50 * 2) / 1e6, (100 * 0.1 + 50 * 0.1) / 1e6];
const record = (text: string, correct: boolean, model: number) => ({ text, correct, inputTokens: 100, outputTokens: 50, usd: usd[model] });

/** `n` sums a + b (kind number) and `n` lettered choices (kind mcq), the split given or none. */
export function recordedLines(n: number, split?: (i: number) => 'train' | 'test'): { sums: string; choices: string } {
  const sums = Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    kind: 'number',
    question: `What is ${i} + ${i + 7}?`,
    answer: String(2 * i + 7),
    ...(split ? { split: split(i) } : {}),
    records: {
      'org/Dear-1': record(`<answer>${2 * i + 7}</answer>`, true, 0),
      'mid-2': record(`<answer>${2 * i + 7}</answer>`, true, 1),
      'cheap-3': record(`<answer>${2 * i + 8}</answer>`, false, 2),
    },
  }));
  const choices = Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    kind: 'mcq',
    question: `Which colour is number ${i}? A. red B. blue`,
    answer: 'B',
    choices: ['red', 'blue'],
    ...(split ? { split: split(i) } : {}),
    records: {
      'org/Dear-1': record('<answer>B</answer>', true, 0),
      'mid-2': record('<answer>A</answer>', false, 1),
      'cheap-3': record('<answer>B</answer>', true, 2),
    },
  }));
  const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  return { sums: jsonl(sums), choices: jsonl(choices) };
}

/** data/routerbench (split by the source) and data/zeroeval (no split) of `n` questions of each kind, in memory. */
export function recordedDataFiles(n = 10): DataFiles {
  const unsplit = recordedLines(n);
  const split = recordedLines(n, (i) => (i % 5 === 0 ? 'test' : 'train'));
  const files: Record<string, string> = {
    'zeroeval/models.json': JSON.stringify(RECORDED_MODELS),
    'zeroeval/sums.jsonl': unsplit.sums,
    'zeroeval/choices.jsonl': unsplit.choices,
    'routerbench/models.json': JSON.stringify(RECORDED_MODELS.map((m) => (m.id === 'cheap-3' ? { ...m, price: null } : m))),
    'routerbench/sums.jsonl': split.sums,
    'routerbench/choices.jsonl': split.choices,
  };
  return lazyDataFiles(Object.fromEntries(Object.entries(files).map(([p, text]) => [`data/${p}`, async () => text])), 'data/');
}
