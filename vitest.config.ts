import { defineConfig } from 'vitest/config';

// Two cores are shared by everything a run starts: keep workers few.
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
