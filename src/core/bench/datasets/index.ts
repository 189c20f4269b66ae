export { formatMcqQuestion, loadAime, loadGsm8k, loadHumanEval, loadMath500, loadMmluCsv, mmluStandardPrompt, mmluSubject } from './loaders.ts';
export {
  badRowsError,
  csvRows,
  DEFAULT_FIELD_MAP,
  jsonlRows,
  mapRows,
  parquetRows,
  parseFieldMap,
  type BadRow,
  type FieldMap,
  type SourceRow,
} from './user-data.ts';
export { DATASETS_SERVER, hubRows, HUB_PAGE_ROWS, parseHubRef, type HubDatasetRef, type HubRowsOptions, type PageCache } from './hub-rows.ts';
export { BUILT_IN_DATASETS, formatOfFile, isBuiltInDataset, type BuiltInDataset, type UserFileFormat } from './built-in.ts';
export { builtInTasks, dataText, lazyDataFiles, mmluSubjects, readShippedReplay, type DataFiles } from './data-files.ts';
export { loadDataset, type DataSource, type DatasetHost, type DatasetRequest, type LoadedDataset, type RowMapping } from './load-dataset.ts';
