/** Jest with ts-jest's ESM preset; run through scripts/test.mjs (sets --experimental-vm-modules). */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  testTimeout: 60000,
  // test.concurrent cases of one file run two at a time (the trap corpus's product runs: each is a chain
  // of child processes that keeps about one core busy); a case's timeout counts from its own start.
  maxConcurrency: 2,
  // A test never touches the repository it runs in (test/hygiene/project-worktrees.mjs).
  globalSetup: '<rootDir>/test/hygiene/global-setup.mjs',
  globalTeardown: '<rootDir>/test/hygiene/global-teardown.mjs',
};
