/** Small readers and writers of the text formats Baton's data comes in, for every folder of core that reads files. */
export { formatCsv, parseCsv, parseCsvLines, parseCsvObjects } from './csv.ts';
export { jsonlLines, parseJsonKeepingIntegers, parseJsonl, requireField } from './jsonl.ts';
