/**
 * ZeroEval's recorded responses (result_dirs/{gsm,math-l5,crux}/<model>.json of a checkout) as replay rows:
 * Baton grades each response, ZeroEval's own verdict (./zeroeval-verdict) is kept beside it for the agreement
 * table, and tokens and dollars are estimated (the records carry neither).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskKind } from '../../src/core/task.ts';
import { costUsd } from '../../src/core/pricing/index.ts';
import { answerPart, roundUsd, type ReplayRow } from './records.ts';
import { charsPerToken, type CountTokens } from './tokens.ts';
import { HIDDEN_REASONING_PER_VISIBLE_TOKEN, ZEROEVAL_FILE_ALIASES, ZEROEVAL_MODELS } from './zeroeval-models.ts';
import { zeroEvalAnswer, zeroEvalCruxVerdict, zeroEvalNumberVerdict } from './zeroeval-verdict.ts';

export const ZEROEVAL_SETS = ['gsm', 'math-l5', 'crux'] as const;
export type ZeroEvalSet = (typeof ZEROEVAL_SETS)[number];

const KIND: Record<ZeroEvalSet, TaskKind> = { gsm: 'gsm8k', 'math-l5': 'math', crux: 'literal' };

interface ZeroEvalItem {
  id: string | number;
  question?: string;
  problem?: string;
  answer: string;
  chat_history: string[];
  output: string[];
}

/** Every graded response with both verdicts, for the agreement table. */
export interface Verdict {
  set: string;
  model: string;
  id: string;
  baton: boolean;
  source: boolean;
  extracted: string | null;
  sourceAnswer: string | null;
  gold: string;
}

// The exactly counted sample for each model's characters per token: every 25th response.
const TOKEN_SAMPLE_STRIDE = 25;

/** The gold as Baton grades it: GSM8K's `# 18` is 18. */
const goldOf = (set: ZeroEvalSet, item: ZeroEvalItem) => (set === 'gsm' ? item.answer.replace(/#/g, '').trim() : item.answer.trim());

// Files of 4 MiB or more, absent from the copy the committed data came from: skipped in any checkout, so that
// every checkout of the recorded commit derives the same files.
const NOT_DERIVED = new Set(['gsm/Llama-3-Instruct-8B-SimPO-v0.2.json', 'gsm/Phi-3-mini-4k-instruct.json', 'gsm/Qwen2-1.5B-Instruct.json']);

/** The model files of `set` in a checkout, by the model's summary name; `skipped` lists files with no priced model. */
function modelFiles(root: string, set: ZeroEvalSet): { files: Map<string, string>; skipped: string[] } {
  const dir = join(root, 'result_dirs', set);
  const files = new Map<string, string>();
  const skipped: string[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const stem = name.slice(0, -'.json'.length);
    const id = ZEROEVAL_FILE_ALIASES[stem] ?? stem;
    if (ZEROEVAL_MODELS.some((m) => m.id === id) && !NOT_DERIVED.has(`${set}/${name}`)) files.set(id, join(dir, name));
    else skipped.push(`${set}/${name}`);
  }
  return { files, skipped };
}

export function deriveZeroEvalSet(root: string, set: ZeroEvalSet, count: CountTokens): { rows: ReplayRow[]; verdicts: Verdict[]; skipped: string[] } {
  if (!existsSync(join(root, 'result_dirs', set))) throw new Error(`${root} has no result_dirs/${set}: give a checkout of yuchenlin/ZeroEval.`);
  const { files, skipped } = modelFiles(root, set);
  const rows = new Map<string, ReplayRow>();
  const inputTokens = new Map<string, number>();
  const verdicts: Verdict[] = [];
  for (const [model, file] of files) {
    const items = JSON.parse(readFileSync(file, 'utf8')) as ZeroEvalItem[];
    const { price } = ZEROEVAL_MODELS.find((m) => m.id === model)!;
    const ratio = charsPerToken(
      items.map((item) => item.output[0] ?? ''),
      count,
      TOKEN_SAMPLE_STRIDE,
    );
    const hidden = HIDDEN_REASONING_PER_VISIBLE_TOKEN[model] ?? 0;
    for (const item of items) {
      const id = String(item.id);
      const answer = goldOf(set, item);
      let row = rows.get(id);
      if (!row) {
        row = { id, kind: KIND[set], question: (item.question ?? item.problem ?? '').trim(), answer, records: {} };
        rows.set(id, row);
        inputTokens.set(id, count(item.chat_history[0] ?? row.question));
      }
      const response = item.output[0] ?? '';
      const { text, correct, extracted } = answerPart(response, row);
      const input = inputTokens.get(id)!;
      const output = Math.round((response.length / ratio) * (1 + hidden));
      row.records[model] = { text, correct, outputTokens: output, inputTokens: input, usd: roundUsd(costUsd({ input, output }, price)!) };
      const sourceAnswer = zeroEvalAnswer(response, model);
      const source = set === 'crux' ? zeroEvalCruxVerdict(sourceAnswer, item.answer) : zeroEvalNumberVerdict(sourceAnswer, item.answer);
      verdicts.push({ set, model, id, baton: correct, source, extracted, sourceAnswer, gold: answer });
    }
  }
  return { rows: [...rows.values()], verdicts, skipped };
}
