import { avaRunner } from './ava.js';
import { cargoRunner } from './cargo.js';
import { goTestRunner } from './go-test.js';
import { jasmineRunner } from './jasmine.js';
import { jestRunner, vitestRunner } from './jest.js';
import { mochaRunner } from './mocha.js';
import { nodeTapRunner } from './node-tap.js';
import { nodeTestRunner } from './node-test.js';
import { playwrightRunner } from './playwright.js';
import { pytestRunner } from './pytest.js';
import type { Runner, RunnerName } from './types.js';
import { unittestRunner } from './unittest.js';

/** Every runner the harness can ask for a report, in the order a command is matched against them. */
export const RUNNERS: readonly Runner[] = [
  jestRunner,
  vitestRunner,
  mochaRunner,
  nodeTestRunner,
  avaRunner,
  nodeTapRunner,
  jasmineRunner,
  playwrightRunner,
  pytestRunner,
  unittestRunner,
  goTestRunner,
  cargoRunner,
];

export function runnerNamed(name: string): Runner | undefined {
  return RUNNERS.find((r) => r.name === (name as RunnerName));
}
