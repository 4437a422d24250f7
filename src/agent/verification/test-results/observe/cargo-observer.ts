import type { Observer } from './types.js';

/**
 * cargo test needs no observer: libtest prints one `test <name> ... ok|FAILED|ignored` line per test
 * between `running N tests` and `test result:` for every target (unit, integration, doc-tests), and
 * captures what tests print unless told not to. The collector reads those lines from the output.
 */
export const cargoObserver: Observer = {
  name: 'cargo',
  files: () => [],
  env: () => ({}),
  outputRunners: ['cargo'],
};
