import { join } from 'node:path';
import { reportsDir, type Observer } from './types.js';
import { nodePreloadSource, nodeTestReporterSource } from './node-preload.js';
import { selectionFile } from './selection.js';

/** Where the node observer's own files go under the run's observe folder. */
export const nodeObserverFiles = (dir: string) => ({
  preload: join(dir, 'node', 'proofpr-observer.cjs'),
  nodeTestReporter: join(dir, 'node', 'proofpr-node-test-reporter.mjs'),
});

/**
 * One NODE_OPTIONS word: Node splits NODE_OPTIONS on spaces outside double quotes and reads `\` as an
 * escape inside them, so a path with spaces, quotes or backslashes is written in double quotes.
 */
export function nodeOptionsWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The node observer: a `--require` preload for jest, vitest, mocha, jasmine and ava (node-preload.ts
 * says how each is observed; node-tap and playwright only leave a `.seen` marker, so their own summary
 * lines count), and for `node --test` (and any node:test run) a reporter module named in
 * NODE_OPTIONS beside the spec reporter on stdout, which keeps the run's output readable. NODE_OPTIONS
 * is appended to the one the command would get; nothing else in the environment changes.
 */
export const nodeObserver: Observer = {
  name: 'node',
  files(dir) {
    const f = nodeObserverFiles(dir);
    const reports = reportsDir(dir);
    return [
      { path: f.preload, content: nodePreloadSource(reports, selectionFile(dir)) },
      { path: f.nodeTestReporter, content: nodeTestReporterSource(reports) },
    ];
  },
  env(dir, base) {
    const f = nodeObserverFiles(dir);
    const own = [
      `--require ${nodeOptionsWord(f.preload)}`,
      '--test-reporter=spec --test-reporter-destination=stdout',
      `--test-reporter=${nodeOptionsWord(f.nodeTestReporter)} --test-reporter-destination=stdout`,
    ].join(' ');
    const prior = (base.NODE_OPTIONS ?? '').trim();
    return { NODE_OPTIONS: prior ? `${prior} ${own}` : own };
  },
};
