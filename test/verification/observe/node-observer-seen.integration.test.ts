import { describe, expect, it, jest } from '@jest/globals';
import { collectObserved } from '../../../src/agent/verification/test-results/observe/collect-observed.js';
import { countCalls } from '../../../src/agent/verification/test-results/observe/count-calls.js';
import { nodeObserver } from '../../../src/agent/verification/test-results/observe/node-observer.js';
import { parsePlaywrightSummary } from '../../../src/agent/verification/test-results/observe/playwright-summary.js';
import { tempProject } from '../../kit/verify-files.js';
import { reportFiles, runObserved } from '../../kit/verify-observe.js';
import { baseEnv, linkBin } from './node-observe-kit.js';

// Real node processes on a shared machine.
jest.setTimeout(120_000);

/** Stand-ins for node-tap and playwright at the paths their packages install their command-line entry. */
const FAKE_TAP = `#!/usr/bin/env node
const { spawnSync } = require('child_process');
const files = process.argv.slice(2);
console.log('TAP version 14');
let n = 0;
for (const f of files) {
  n += 1;
  const r = spawnSync(process.execPath, [f], { stdio: 'inherit' });
  console.log((r.status === 0 ? 'ok ' : 'not ok ') + n + ' - ' + f);
}
console.log('1..' + n);
`;
const FAKE_PLAYWRIGHT = `#!/usr/bin/env node
console.log('Running 3 tests using 1 worker');
console.log('');
console.log('  1 skipped');
console.log('  2 passed (1.2s)');
`;
const NODE_TEST = `const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 1, 2));\ntest('subtracts', () => assert.strictEqual(2 - 1, 1));\n`;

function project(): string {
  const root = tempProject(
    {
      'package.json': JSON.stringify({ name: 'p' }),
      'node_modules/tap/bin/run.js': FAKE_TAP,
      'node_modules/@playwright/test/cli.js': FAKE_PLAYWRIGHT,
      'tap/a.js': 'if (process.env.PROOFPR_OBSERVE_INSIDE === undefined) process.exit(9);\n',
      'tap/b.js': '',
      'unit/math.test.js': NODE_TEST,
    },
    'proofpr-seen-proj-',
  );
  linkBin(root, 'tap', '../tap/bin/run.js');
  linkBin(root, 'playwright', '../@playwright/test/cli.js');
  return root;
}

async function observe(root: string, command: string) {
  const { dir, code, stdout, stderr } = runObserved(nodeObserver, root, command, baseEnv());
  const output = `${stdout}${stderr}`;
  const { calls, seen } = await collectObserved(dir, output, [root], []);
  return { code, files: reportFiles(dir), seen, counted: countCalls(calls, seen, output) };
}

describe('node observer: runners it cannot observe leave a .seen marker', () => {
  const root = project();

  it("tap beside node --test: the tap summary counts beside the node:test report; tap's test files stay inert", async () => {
    const o = await observe(root, 'npx tap tap/a.js tap/b.js && node --test unit/math.test.js');
    expect(o.code).toBe(0);
    expect(o.files.filter((f) => f.endsWith('.seen')).map((f) => f.replace(/-\d+\.seen$/, ''))).toEqual(['node-tap']);
    expect([...o.seen]).toEqual(['node-tap']);
    expect(o.counted.calls.map((c) => [c.runner, c.source, c.counts.total])).toEqual([
      ['node-test', 'junit', 2],
      // tap's TAP read as node-tap's tree (node-tap.ts): each file's point is a leaf, as tap counts it.
      ['node-tap', 'tap', 2],
    ]);
    expect(o.counted.counts).toEqual({ passed: 4, failed: 0, skipped: 0, total: 4 });
  });

  it('playwright beside node --test: its closing block counts, skipped included', async () => {
    const o = await observe(root, 'npx playwright test && node --test unit/math.test.js');
    expect(o.code).toBe(0);
    expect([...o.seen]).toEqual(['playwright']);
    expect(o.counted.calls.map((c) => [c.runner, c.source, c.counts.total])).toEqual([
      ['node-test', 'junit', 2],
      ['playwright', 'summary-line', 3],
    ]);
    expect(o.counted.counts).toEqual({ passed: 4, failed: 0, skipped: 1, total: 5 });
  });

  it('a playwright-like line from a process no observer saw is not read (not even blind)', () => {
    const counted = countCalls([], new Set(), '  2 passed (1.0s)\n');
    expect(counted.counts).toBeNull();
  });
});

describe('playwright summary lines', () => {
  it('failed and flaky blocks with the tests they name; undefined without a count line', () => {
    const lines = [
      'Running 6 tests using 2 workers',
      '',
      '  1 failed',
      '    [chromium] › a.spec.ts:3:1 › has title ─────',
      '  1 flaky',
      '    [chromium] › b.spec.ts:9:1 › retries',
      '  1 did not run',
      '  3 passed (4.5s)',
    ];
    expect(parsePlaywrightSummary(lines)).toEqual({ counts: { passed: 4, failed: 1, skipped: 1, total: 6 }, line: 7 });
    expect(parsePlaywrightSummary(['Tests  3 passed (3)', '  2 passing (5ms)'])).toBeUndefined();
  });
});
