import type { Observer } from './types.js';

/** The flag the go observer adds to GOFLAGS. */
export const GO_TEST_VERBOSE = '-test.v=true';

/**
 * go test, observed through its own output: `GOFLAGS` gets `-test.v=true` appended (existing flags
 * such as `-modcacherw` kept). Only `go test` defines that flag (go ignores GOFLAGS entries a command
 * does not define), so every `go test` inside the command prints what `go test -v` prints: a
 * `=== RUN` and a `--- PASS/FAIL/SKIP` line per test and subtest, each package's lines ending with its
 * `ok`/`FAIL` line, cached runs included. `go vet`, `go build`, `go list`, `go run` keep their output
 * and exit status (GOFLAGS=-json would not: `go vet -json` exits 0 on findings and `go list -json`
 * prints JSON). A `go test -json` in the command keeps its JSON (go drops -test.v from GOFLAGS then),
 * which the go runner reads too.
 */
export const goObserver: Observer = {
  name: 'go',
  files: () => [],
  env(_dir, base) {
    const flags = (base.GOFLAGS ?? '').trim();
    if (flags.split(/\s+/).includes(GO_TEST_VERBOSE)) return { GOFLAGS: flags };
    return { GOFLAGS: flags ? `${flags} ${GO_TEST_VERBOSE}` : GO_TEST_VERBOSE };
  },
  outputRunners: ['go'],
};
