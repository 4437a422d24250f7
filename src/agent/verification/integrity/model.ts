/** What a parsed test file says, in terms the base/final comparison can match. */

export interface Span {
  /** 1-based, inclusive. */
  start: number;
  end: number;
  /** The source text of the construct (as written). */
  text: string;
}

/** Where an assertion sits inside its test: each one can keep it from running or from failing the test. */
export type Guard = 'try' | 'catch' | 'conditional' | 'loop' | 'callback' | 'after-return';

export interface Assertion {
  /** Normalized full text: equal keys = the same assertion. */
  key: string;
  /** What is asserted on (expect's argument, assert's first argument, the asserted expression). */
  subject: string;
  /** The matcher or assert function, with modifiers (`not.toBe`, `assert.equal`, `==`). */
  matcher: string;
  /** Normalized arguments of the matcher (the expected values). */
  args: string[];
  guards: Guard[];
  /** The construct behind each guard (the try statement, the if, the early return). */
  guardSpans: Partial<Record<Guard, Span>>;
  span: Span;
}

export interface Marker {
  /** skip, only, todo, failing, skipIf, runIf, xfail, expectedFailure, runtime-skip, options, … */
  kind: string;
  span: Span;
}

export interface TestCase {
  /** Full name: enclosing suite names and the test's own name, joined by " > " (Python: Class::name). */
  name: string;
  markers: Marker[];
  assertions: Assertion[];
  span: Span;
  /** Normalized body text, to tell whether the test changed at all. */
  body: string;
}

export interface Mock {
  /** The module or target mocked, as written (`../src/stats.js`, `pkg.mod.fn`). */
  target: string;
  /** Resolved repository path when it points into the repository (relative import, in-repo package). */
  repoPath?: string;
  how: string;
  span: Span;
}

/** A statement outside any test (imports, helpers, hooks, setup code), keyed for matching. */
export interface TopLevel {
  key: string;
  /** import | declaration | hook | code */
  kind: 'import' | 'declaration' | 'hook' | 'code';
  /** Names an import binds, with their source (import kind only). */
  bindings?: Record<string, string>;
  span: Span;
}

export interface FileModel {
  tests: TestCase[];
  mocks: Mock[];
  topLevel: TopLevel[];
  /** Module specifiers the file imports (for following helpers). */
  imports: string[];
  /** Markers outside any test that deselect or skip tests (`.only` on a suite, `pytestmark = skip`). */
  fileMarkers: Marker[];
  parseError: boolean;
}
