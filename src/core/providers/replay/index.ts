export { parseRouteLlmCsv, routeLlmCsv } from './routellm.ts';
export { mergeReplayTables, normalizeQuestion, replayColumn, type ReplayRecord, type ReplayTable } from './replay-table.ts';
export { clearReplay, importReplayCsv, loadReplay, type StoredReplay } from './replay-store.ts';
export { ROUTELLM_MMLU_POOL } from './routellm-mmlu-pool.ts';
export {
  isSourceGraded,
  parseRecordedModels,
  parseRecordedSet,
  RECORDED_SOURCES,
  recordedColumn,
  recordedReplayTable,
  recordedSourceOf,
  SOURCE_VERDICT,
  type RecordedAnswer,
  type RecordedModel,
  type RecordedQuestion,
  type RecordedSource,
  type RecordedSourceData,
} from './recorded-set.ts';
export { completeModels, isRecordedPool, RECORDED_POOLS, recordedPool, type RecordedPoolName } from './recorded-pools.ts';
