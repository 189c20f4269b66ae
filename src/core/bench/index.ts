export * from './datasets/index.ts';
