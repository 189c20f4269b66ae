import { defineConfig } from 'vitest/config';

// The 2 cores are shared by everything a run starts: engine and browser tests run one file at a time.
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', testTimeout: 20_000 },
      },
      {
        test: {
          name: 'engine',
          include: ['test/engine/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
          globalSetup: ['test/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
