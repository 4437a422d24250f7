/**
 * Test and setup commands detected from a repository's files, for runs without `test.command` /
 * `setup.command` in .github/proofpr.yml (and for `proofpr init`, which writes them down). Pure apart
 * from reading files under `root`: no command is run.
 */
import { detectNode } from './node-project.js';
import { detectPython } from './python-project.js';
import { detectCargo, detectGo, detectMake } from './other-projects.js';
import type { DetectedCommands } from './types.js';

export type { DetectedCommand, DetectedCommands, DetectedSetup, DetectedTest } from './types.js';

const DETECTORS: ReadonlyArray<(root: string) => Promise<DetectedCommands | undefined>> = [
  detectNode,
  detectPython,
  detectGo,
  detectCargo,
  detectMake,
];

/**
 * Looks, in this order, at package.json (scripts.test, the lock file's package manager), Python
 * (pytest configuration or unittest files), go.mod, Cargo.toml and a Makefile `test:` target. The
 * first project kind with a test command gives it, and its own setup command when it has one (else
 * the first setup found). `notes` say what was seen and not used.
 */
export async function detectCommands(root: string): Promise<DetectedCommands> {
  const found = [];
  for (const d of DETECTORS) {
    const r = await d(root);
    if (r) found.push(r);
  }
  const withTest = found.find((r) => r.test);
  const setup = withTest?.setup ?? found.find((r) => r.setup)?.setup;
  return {
    ...(withTest?.test ? { test: withTest.test } : {}),
    ...(setup ? { setup } : {}),
    notes: found.flatMap((r) => r.notes),
  };
}
