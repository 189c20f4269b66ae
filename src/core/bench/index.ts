export * from './datasets/index.ts';
export * from './baselines/index.ts';
