import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // `npm test` runs both; `npm run test:unit` the pure tests beside the code (no network, no Redis),
    // `npm run test:integration` the tests under test/ (real HTTP, Redis, processes).
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'jobs/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'] } },
    ],
  },
});
