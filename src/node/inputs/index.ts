/**
 * What the commands take in: worker pool files and the workers they make, task files and the built-in
 * task sets, evaluation data sets, RouteLLM replay records, and Baton's data/ folder on disk.
 */
export { NODE_DATA_FILES } from './data-files.ts';
export { itemsHash, loadEvalData } from './eval-data.ts';
export { BUILT_IN_POOLS, builtInPool, checkPoolFlag, isBuiltInPool, type BuiltInPool, parsePoolFile, POOL_FLAG, readPoolFlag } from './pool-file.ts';
export { readReplayFlags, REPLAY_FLAG } from './replay-data.ts';
export { isBuiltInTaskSet, parseTaskFile, readBuiltInTaskSet, readTasksFlag, TASK_DATASETS } from './task-file.ts';
export { buildPool } from './worker-pool.ts';
