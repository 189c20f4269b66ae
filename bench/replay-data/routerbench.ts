/**
 * RouterBench's zero-shot records as RouterDC keeps them (datasets/routerbench_zs/<set>_{train,test}.csv of a
 * checkout): per question the prompt, and per model its response, its correctness (0/1) and its dollar cost.
 * The files carry no gold answer: for ARC and Winogrande it is the letter that the responses marked correct
 * give (by majority), or, where none is, the one option no wrong response names; a question left without
 * either is dropped. MBPP carries no tests, so its correctness is the source's (gradedBy: 'source').
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvObjects } from '../../src/core/formats/index.ts';
import { extractAnswer, parsePythonLiteral } from '../../src/core/reward/index.ts';
import { OPTION_LETTERS } from '../../src/core/bench/datasets/loaders.ts';
import { answerPart, roundUsd, type ReplayRow } from './records.ts';
import type { CountTokens } from './tokens.ts';
import type { Verdict } from './zeroeval.ts';

export const ROUTERBENCH_SETS = { 'arc-challenge': 'arc_challenge', winogrande: 'winograde', mbpp: 'mbpp' } as const;
export type RouterBenchSet = keyof typeof ROUTERBENCH_SETS;

export const ROUTERBENCH_MODELS = [
  { id: 'gpt-4-1106-preview', label: 'GPT-4 Turbo (1106)' },
  { id: 'gpt-3.5-turbo-1106', label: 'GPT-3.5 Turbo (1106)' },
  { id: 'claude-v2', label: 'Claude 2' },
  { id: 'claude-v1', label: 'Claude 1' },
  { id: 'claude-instant-v1', label: 'Claude Instant 1' },
  { id: 'meta/llama-2-70b-chat', label: 'Llama 2 70B Chat' },
  { id: 'meta/code-llama-instruct-34b-chat', label: 'Code Llama 34B Instruct' },
  { id: 'mistralai/mixtral-8x7b-chat', label: 'Mixtral 8x7B' },
  { id: 'mistralai/mistral-7b-chat', label: 'Mistral 7B' },
  { id: 'zero-one-ai/Yi-34B-Chat', label: 'Yi-34B Chat' },
  { id: 'WizardLM/WizardLM-13B-V1.2', label: 'WizardLM 13B' },
] as const;

/** A cell holding a Python list of one string (`['B']`), as RouterBench's pandas export wrote prompts and responses. */
function firstString(cell: string): string {
  const value = parsePythonLiteral(cell);
  if (value?.type === 'list' && value.items[0]?.type === 'str') return value.items[0].value;
  throw new Error(`not a list of strings: ${cell.slice(0, 80)}`);
}

/** The question a few-shot prompt ends with, without its answer-format line, and its options' texts. */
function lastQuestion(prompt: string): { question: string; choices: string[] } {
  const block = prompt.split(/\n\n/).pop()!;
  const question = block.replace(/\s*Print only a single choice[\s\S]*$/, '').trim();
  const choices = [...question.matchAll(/^[A-Z]\) (.*)$/gm)].map((m) => m[1].trim());
  return { question, choices };
}

/** The gold letter: what the responses marked correct say (majority), else the one option no response names. */
function inferGold(letters: { letter: string | null; correct: boolean }[], choices: string[]): string | null {
  const votes = new Map<string, number>();
  for (const { letter, correct } of letters) if (correct && letter) votes.set(letter, (votes.get(letter) ?? 0) + 1);
  if (votes.size > 0) return [...votes].sort((a, b) => b[1] - a[1])[0][0];
  const named = new Set(letters.map((l) => l.letter));
  const left = [...OPTION_LETTERS.slice(0, choices.length)].filter((l) => !named.has(l));
  return left.length === 1 ? left[0] : null;
}

export function deriveRouterBenchSet(
  root: string,
  set: RouterBenchSet,
  count: CountTokens,
): { rows: ReplayRow[]; verdicts: Verdict[]; dropped: { id: string; why: string }[] } {
  const rows: ReplayRow[] = [];
  const verdicts: Verdict[] = [];
  const dropped: { id: string; why: string }[] = [];
  const files = (['train', 'test'] as const).map((split) => {
    const file = join(root, 'datasets', 'routerbench_zs', `${ROUTERBENCH_SETS[set]}_${split}.csv`);
    return { split, rows: parseCsvObjects(readFileSync(file, 'utf8'), file) };
  });
  const seen = new Map<string, number>();
  for (const r of files.flatMap((f) => f.rows)) seen.set(r.sample_id, (seen.get(r.sample_id) ?? 0) + 1);
  for (const { split, rows: csvRows } of files) {
    for (const r of csvRows) {
      if (seen.get(r.sample_id)! > 1) {
        dropped.push({ id: r.sample_id, why: 'in two rows that split its correctness between them (a merge artefact)' });
        continue;
      }
      const prompt = firstString(r.prompt);
      const responses = ROUTERBENCH_MODELS.map((m) => ({ model: m.id, response: firstString(r[`${m.id}|model_response`]), source: Number(r[m.id]) === 1 }));
      const inputTokens = count(prompt);
      const usd = (model: string) => roundUsd(Number(r[`${model}|total_cost`]));
      if (set === 'mbpp') {
        const row: ReplayRow = { id: r.sample_id, kind: 'code', question: prompt.trim(), answer: '', split, records: {} };
        for (const { model, response, source } of responses) {
          row.records[model] = { text: response, correct: source, gradedBy: 'source', outputTokens: count(response), inputTokens, usd: usd(model) };
        }
        rows.push(row);
        continue;
      }
      const { question, choices } = lastQuestion(prompt);
      const letters = responses.map(({ response, source }) => ({ letter: extractAnswer(response, 'mcq', choices), correct: source }));
      const gold = inferGold(letters, choices);
      if (gold === null) {
        dropped.push({ id: r.sample_id, why: 'no response marked correct, and the wrong ones leave more than one option' });
        continue;
      }
      const row: ReplayRow = { id: r.sample_id, kind: 'mcq', question, answer: gold, choices, split, records: {} };
      for (const { model, response, source } of responses) {
        const { text, correct, extracted } = answerPart(response, row);
        row.records[model] = { text, correct, outputTokens: count(response), inputTokens, usd: usd(model) };
        verdicts.push({ set, model, id: row.id, baton: correct, source, extracted, sourceAnswer: response.slice(0, 80), gold });
      }
      rows.push(row);
    }
  }
  return { rows, verdicts, dropped };
}
