import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/support/build.ts'],
    // Per-file checks: a failed build fails the end-to-end files; scripted-server violations fail the test.
    setupFiles: ['test/support/test-file-guards.ts'],
  },
});
