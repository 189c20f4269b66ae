export { parseCsv, parseCsvObjects } from './csv.ts';
export { parseJsonl } from './jsonl.ts';
export { formatMcqQuestion, loadAime, loadGsm8k, loadHumanEval, loadMath500, loadMmluCsv } from './loaders.ts';
