/** The Evaluate page's settings, checked in the evaluator worker. Test: test/unit/services/evaluator/check-eval-settings.test.ts. */
import { parseFieldMap, parseHubRef } from '../../core/bench/datasets/index.ts';
import { parseMethodSpec } from '../../core/bench/eval/index.ts';
import { BatonError } from '../../core/errors/index.ts';
import { isRecordedPool, RECORDED_POOLS } from '../../core/providers/replay/index.ts';
import { TASK_KINDS } from '../../core/task.ts';
import { BUILT_IN_DATASETS, EVAL_LIMITS, formatOfFile, type EvalSettings } from './api.ts';

const invalid = (message: string) => new BatonError({ code: 'run/config', message });

function whole(name: string, value: number, min: number, max = Infinity): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${name} must be a whole number${max === Infinity ? ` of at least ${min}` : ` from ${min} to ${max}`}, not ${value}.`);
  }
}

/** The settings, checked: every mistake a message naming the field. Returns them unchanged. */
export function checkEvalSettings(s: EvalSettings): EvalSettings {
  if (s.pool.length === 0) throw invalid('The pool has no workers: add one on the Workers page first.');
  if (s.methods.length === 0) throw invalid('Choose at least one method.');
  for (const m of s.methods) parseMethodSpec(m, 'web');
  if (new Set(s.methods).size !== s.methods.length) throw invalid('A method is chosen twice.');
  whole('Offset', s.offset, 0);
  if (s.limit !== undefined) whole('Limit', s.limit, 1);
  whole('Repeats', s.repeats, 1, EVAL_LIMITS.repeats);
  whole('Concurrency', s.concurrency, 1, EVAL_LIMITS.concurrency);
  whole('Max steps', s.maxSteps, 1, EVAL_LIMITS.maxSteps);
  whole('Seed', s.seed, 0);
  if (s.budgetUsd !== undefined && !(s.budgetUsd >= 0)) throw invalid(`Budget must be a number of dollars of at least 0, not ${s.budgetUsd}.`);
  const d = s.data;
  if (d.from === 'builtin') {
    if (!BUILT_IN_DATASETS.includes(d.name)) throw invalid(`No built-in data set "${d.name}" (${BUILT_IN_DATASETS.join(', ')}).`);
    if (d.subjects && d.name !== 'mmlu') throw invalid('Subjects apply to MMLU only.');
  } else if (d.from === 'recorded') {
    if (!isRecordedPool(d.pool)) throw invalid(`No recorded pool "${d.pool}" (${Object.keys(RECORDED_POOLS).join(', ')}).`);
  } else {
    parseFieldMap(d.map);
    if (d.kind !== undefined && (!TASK_KINDS.includes(d.kind) || d.kind === 'open')) throw invalid(`No task kind "${d.kind}".`);
    if (d.from === 'hub') parseHubRef(`hf:${d.dataset}`);
    else if (!formatOfFile(`.${d.format}`)) throw invalid(`A data file must be JSONL, CSV or Parquet, not "${d.name}".`);
  }
  return s;
}
