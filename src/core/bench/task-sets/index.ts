export { expertsTaskSet, shortExpertsTaskSet, type ExpertsTaskOptions } from './experts.ts';
export { routellmMmluTaskSet } from './routellm-mmlu.ts';
