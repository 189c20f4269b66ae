export { parseRouteLlmCsv, routeLlmCsv } from './routellm.ts';
export { mergeReplayTables, normalizeQuestion, replayColumn, type ReplayRecord, type ReplayTable } from './replay-table.ts';
export { clearReplay, importReplayCsv, loadReplay, type StoredReplay } from './replay-store.ts';
export { ROUTELLM_MMLU_POOL } from './routellm-mmlu-pool.ts';
