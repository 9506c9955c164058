import { defineConfig } from 'vitest/config';

// One runner, four kinds of test: unit (node, port fakes), webview (real headless Chromium), field
// (real repositories through the real CLI) and e2e (a real VS Code: code-server driven by
// Playwright). `npm test` builds first and runs them all.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // A promise rejection nobody handles fails the test it happened in.
          setupFiles: ['test/unit/setup/failOnUnhandledRejection.ts'],
        },
      },
      {
        test: {
          name: 'webview',
          include: ['test/webview/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // Real repositories (../shared/field) worked on through the real CLI by scripted models
        // replaying a capable model's tool calls (issue 39). One install of their dependencies per run.
        test: {
          name: 'field',
          include: ['test/field/**/*.test.ts'],
          globalSetup: ['test/field/buildCliOnce.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          // Two files side by side: tomli's scenarios run while defu's install works. A project with
          // workers of its own runs in a group of its own (vitest's rule): after the others.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
