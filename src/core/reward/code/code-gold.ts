/**
 * The gold of a code task, stored as JSON in Task.answer: HumanEval's function tests
 * (`{"test": "def check(candidate): ...", "entry_point": "name", "prompt"?: "..."}`), or stdin/stdout
 * tests in LiveCodeBench's style (`{"tests": [{"input": "...", "output": "..."}]}`).
 */
import { BatonError } from '../../errors/index.ts';

export interface StdioTest {
  input: string;
  output: string;
}

export type CodeGold =
  /** The program is `prompt` (when given) + the answer + `test`, then `check(entryPoint)`. */
  | { kind: 'function'; test: string; entryPoint: string; prompt?: string }
  /** The program reads each test's input on stdin and must print its output. */
  | { kind: 'stdio'; tests: StdioTest[] };

const SHAPES = 'a code task\'s gold is JSON: {"test": "def check(candidate): ...", "entry_point": "name"} or {"tests": [{"input": "...", "output": "..."}]}';

function invalid(why: string): BatonError {
  return new BatonError({ code: 'data/invalid', message: `Invalid code gold: ${why}; ${SHAPES}.` });
}

const isString = (v: unknown): v is string => typeof v === 'string';

function stdioTests(tests: unknown): StdioTest[] {
  if (!Array.isArray(tests) || tests.length === 0) throw invalid('"tests" must be a non-empty list');
  return tests.map((t: unknown, i) => {
    const { input, output } = (t ?? {}) as Record<string, unknown>;
    if (!isString(input) || !isString(output)) throw invalid(`test ${i + 1} needs string "input" and "output"`);
    return { input, output };
  });
}

export function parseCodeGold(answer: string): CodeGold {
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch {
    throw invalid('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('not a JSON object');
  const gold = value as Record<string, unknown>;
  if ('tests' in gold) return { kind: 'stdio', tests: stdioTests(gold.tests) };
  const entryPoint = gold.entry_point ?? gold.entryPoint;
  if (!isString(gold.test) || !isString(entryPoint) || !/^[A-Za-z_]\w*$/.test(entryPoint)) {
    throw invalid('"test" and "entry_point" (a Python name) are required');
  }
  if (gold.prompt !== undefined && !isString(gold.prompt)) throw invalid('"prompt" must be a string');
  return { kind: 'function', test: gold.test, entryPoint, ...(isString(gold.prompt) ? { prompt: gold.prompt } : {}) };
}
