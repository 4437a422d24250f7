import type { Observer } from './types.js';
import { readSelection, regexLiteral } from './selection.js';

/** The flag the go observer adds to GOFLAGS. */
export const GO_TEST_VERBOSE = '-test.v=true';

/**
 * `-test.run` for a selection: the top-level test of each selected name (go's ids are `<package> > <Test>`
 * or `<Test>/<subtest>`; a subtest runs with its parent), anchored. Undefined without a selection.
 */
export function goRunFlag(dir: string): string | undefined {
  const sel = readSelection(dir);
  if (!sel) return undefined;
  const tops = [...new Set(sel.tests.map((t) => (t.name.split(' > ').pop() ?? t.name).split('/')[0] ?? ''))].filter((n) => /^\S+$/.test(n));
  return tops.length ? `-test.run=^(${tops.map(regexLiteral).join('|')})$` : undefined;
}

/**
 * go test, observed through its own output: `GOFLAGS` gets `-test.v=true` appended (existing flags
 * such as `-modcacherw` kept). Only `go test` defines that flag (go ignores GOFLAGS entries a command
 * does not define), so every `go test` inside the command prints what `go test -v` prints: a
 * `=== RUN` and a `--- PASS/FAIL/SKIP` line per test and subtest, each package's lines ending with its
 * `ok`/`FAIL` line, cached runs included. `go vet`, `go build`, `go list`, `go run` keep their output
 * and exit status (GOFLAGS=-json would not: `go vet -json` exits 0 on findings and `go list -json`
 * prints JSON). A `go test -json` in the command keeps its JSON (go drops -test.v from GOFLAGS then),
 * which the go runner reads too. A selection (selection.ts) adds `-test.run` the same way; a `-run` the
 * command gives itself wins (go reads the command line over GOFLAGS), and the run is then as written.
 */
export const goObserver: Observer = {
  name: 'go',
  files: () => [],
  env(dir, base) {
    const flags = (base.GOFLAGS ?? '').trim();
    const words = flags ? flags.split(/\s+/) : [];
    const add = [GO_TEST_VERBOSE, goRunFlag(dir)].filter((f): f is string => f !== undefined && !words.includes(f));
    return { GOFLAGS: [...words, ...add].join(' ') };
  },
  outputRunners: ['go'],
};
