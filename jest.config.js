/**
 * Jest with ts-jest's ESM preset, in three tiers by what a test touches (docs/testing.md); run through
 * scripts/test.mjs (sets --experimental-vm-modules). A file's tier is in its name or folder:
 *   unit         test/**\/*.test.ts           pure functions: no process, no git, no listening socket
 *                                              (test/kit/unit-guard.ts makes any of those throw)
 *   integration  test/**\/*.integration.test.ts   real git, real processes, fakes on 127.0.0.1
 *   e2e          test/e2e/**\/*.test.ts, test/**\/*.e2e.test.ts   a whole proofpr run (trap corpora,
 *                                              command classes, effects corpus, App and Action flows)
 * test/architecture/test-tiers.test.ts keeps every file in exactly one tier.
 */
const base = {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/test'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  setupFilesAfterEnv: ['<rootDir>/test/kit/cleanup.ts'],
};

export const TIERS = {
  unit: {
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.test\\.ts$', '\\.e2e\\.test\\.ts$', '<rootDir>/test/e2e/'],
  },
  integration: {
    testMatch: ['<rootDir>/test/**/*.integration.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
  },
  e2e: {
    testMatch: ['<rootDir>/test/e2e/**/*.test.ts', '<rootDir>/test/**/*.e2e.test.ts'],
    testPathIgnorePatterns: ['/node_modules/'],
  },
};

const guard = {
  unit: { setupFiles: ['<rootDir>/test/kit/unit-guard.ts'], setupFilesAfterEnv: ['<rootDir>/test/kit/unit-guard-restore.ts', ...base.setupFilesAfterEnv] },
  integration: { setupFiles: ['<rootDir>/test/kit/unit-guard-off.ts'] },
  e2e: { setupFiles: ['<rootDir>/test/kit/unit-guard-off.ts'] },
};

export default {
  projects: Object.entries(TIERS).map(([name, tier]) => ({ ...base, displayName: name, ...tier, ...guard[name] })),
  // test.concurrent cases of one file run two at a time (the trap corpus's product runs: each is a chain
  // of child processes that keeps about one core busy); a case's timeout counts from its own start.
  maxConcurrency: 2,
  testTimeout: 60000,
  // A test never touches the repository it runs in (test/hygiene/project-worktrees.mjs).
  globalSetup: '<rootDir>/test/hygiene/global-setup.mjs',
  globalTeardown: '<rootDir>/test/hygiene/global-teardown.mjs',
};
