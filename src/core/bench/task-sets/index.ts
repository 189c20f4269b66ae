export { expertsTaskSet, shortExpertsTaskSet } from './experts.ts';
export { routellmMmluTaskSet } from './routellm-mmlu.ts';
export { recordedTaskSet } from './recorded.ts';
export { BUILT_IN_TASK_SETS, builtInHeldOut, builtInTaskSet, isBuiltInTaskSet, type BuiltInTaskSet } from './built-in-task-sets.ts';
