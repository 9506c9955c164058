import { defineConfig } from 'vitest/config';

// `npm run screenshots` only: the README's screenshots, taken in a real VS Code. Kept out of the
// e2e project, so `npm test` never rewrites them.
export default defineConfig({
  test: {
    include: ['test/e2e/screenshots/readmeShots.ts'],
    testTimeout: 300_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
