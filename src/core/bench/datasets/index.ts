export { formatMcqQuestion, loadAime, loadGsm8k, loadHumanEval, loadMath500, loadMmluCsv, mmluStandardPrompt, mmluSubject } from './loaders.ts';
export { badRowsError, csvRows, jsonlRows, mapRows, parquetRows, parseFieldMap, type BadRow, type SourceRow } from './user-data.ts';
export { hubRows, parseHubRef, type HubRowsOptions, type PageCache } from './hub-rows.ts';
export { BUILT_IN_DATASETS, formatOfFile, isBuiltInDataset, type BuiltInDataset, type UserFileFormat } from './built-in.ts';
export {
  builtInTasks,
  dataText,
  lazyDataFiles,
  mmluSubjects,
  readRecordedModels,
  readRecordedSets,
  readRecordedSource,
  readShippedReplay,
  recordedSourceTable,
  type DataFiles,
} from './data-files.ts';
export { loadDataset, type DataSource, type DatasetHost, type LoadedDataset, type RowMapping } from './load-dataset.ts';
