export { expertsTaskSet, shortExpertsTaskSet, type ExpertsTaskOptions } from './experts.ts';
export { routellmMmluTaskSet } from './routellm-mmlu.ts';
export { BUILT_IN_TASK_SETS, builtInTaskSet, isBuiltInTaskSet, type BuiltInTaskSet, type TaskSetOptions } from './built-in-task-sets.ts';
