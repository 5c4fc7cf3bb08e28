import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores: the end-to-end suites start servers and child processes.
    maxWorkers: 2,
  },
});
