import { describe, it, expect } from '@jest/globals';
import { cargoRunner } from '../../src/agent/verification/test-results/runners/cargo.js';

// cargo's target lines (stderr) and the test binaries' blocks (stdout), as two pipes deliver them.
const unit = [
  'running 2 tests',
  'test tests::a ... ok',
  'test tests::b ... ok',
  '',
  'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
];
const integration = [
  'running 1 test',
  'test works ... ok',
  '',
  'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
];
const doc = [
  'running 1 test',
  'test src/lib.rs - f (line 7) ... ok',
  '',
  'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
];
const RUN_UNIT = '     Running unittests src/lib.rs (target/debug/deps/x-1)';
const RUN_IT = '     Running tests/lib.rs (target/debug/deps/lib-2)';
const DOC = '   Doc-tests x';

const ids = (text: string): string[] => (cargoRunner.parse(text, '/p')?.tests ?? []).map((t) => t.id).sort();

describe('cargo test targets', () => {
  const ordered = [RUN_UNIT, ...unit, RUN_IT, ...integration, DOC, ...doc].join('\n');

  it('cargo targets - each test carries the target it ran in', () => {
    expect(ids(ordered)).toEqual([
      'doc-tests x > src/lib.rs - f',
      'tests/lib.rs > works',
      'unittests src/lib.rs > tests::a',
      'unittests src/lib.rs > tests::b',
    ]);
  });

  it('cargo targets - the target lines arriving early or late (stderr beside stdout) give the same ids', () => {
    const early = [RUN_UNIT, RUN_IT, ...unit, DOC, ...integration, ...doc].join('\n');
    const late = [...unit, RUN_UNIT, ...integration, RUN_IT, ...doc, DOC].join('\n');
    expect(ids(early)).toEqual(ids(ordered));
    expect(ids(late)).toEqual(ids(ordered));
  });

  it('cargo targets - with fewer target lines than blocks, a block takes the target line seen last', () => {
    const missing = [RUN_UNIT, ...unit, ...integration].join('\n');
    expect(ids(missing)).toEqual(['unittests src/lib.rs > tests::a', 'unittests src/lib.rs > tests::b', 'unittests src/lib.rs > works']);
  });
});
