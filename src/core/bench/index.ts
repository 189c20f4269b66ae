export * from './datasets/index.ts';
export * from './task-sets/index.ts';
export * from './eval/index.ts';
