/** Lines that assert something, across the common test styles (one match per line is enough). */
const ASSERTION: RegExp[] = [
  /\bexpect\s*\(/, // jest, vitest, chai expect
  /(?:^|[^\w.])assert(?:_eq|_ne|_matches)?!\s*\(/, // rust assert!, assert_eq!
  /(?:^|[^\w.])debug_assert\w*!\s*\(/,
  /(?:^|[^\w.])assert\w*\s*\(/, // assert(, assertEquals(, assertThat(
  /(?:^|[^\w.])assert\s*\.\s*\w+\s*\(/, // node:assert, chai assert, testify assert.Equal
  /^\s*assert\s+\S/, // python assert statement
  /\bself\.assert\w*\s*\(/, // unittest
  /\bpytest\.(?:raises|warns|approx)\s*\(/,
  /\brequire\.\w+\s*\(/, // testify require.Equal
  /\bt\.(?:equal|equals|is|not|ok|notOk|true|false|deepEqual|notDeepEqual|strictEqual|notStrictEqual|same|strictSame|match|like|throws|rejects|doesNotThrow|error|fail|assert|truthy|falsy|snapshot|has|pass)\s*\(/,
  /\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(/, // go testing
  /\.should\b|\bshould\s*\./, // should.js, chai should
  /\.to\.|\.to\s*\(/, // chai expect(...).to., rspec expect(...).to(
  /\bassume\s*\(/,
];

/** Added lines that stop a test from running (or narrow the run to one test). */
const SKIP: RegExp[] = [
  /\.(?:skip|only|todo|skipIf|runIf)\s*\(/, // it.skip( describe.only( test.todo( it.skipIf(
  /\.(?:skip|only|todo)\s*`/, // test.skip`...` (table tests)
  /(?:^|[^\w.])x(?:it|describe|test|context|specify)\s*\(/, // xit( xdescribe(
  /(?:^|[^\w.])f(?:it|describe)\s*\(/, // fit( fdescribe( (focus = others skipped)
  /\b(?:skip|todo|only)\s*:\s*(?:true|['"`])/, // node:test { skip: true }
  /@(?:pytest\.mark\.)?skip(?:If|Unless|if)?\b/, // @skip @pytest.mark.skip @skipIf
  /\bpytest\.mark\.(?:skip|skipif|xfail)\b/,
  /\bpytest\.(?:skip|xfail)\s*\(/,
  /@unittest\.(?:skip|expectedFailure)/,
  /\bself\.skipTest\s*\(/,
  /\bt\.Skip(?:f|Now)?\s*\(/, // go
  /\bt\.skip\s*\(/, // tap / ava
  /#\[ignore\b/, // rust
  /@(?:Disabled|Ignore)\b/, // junit
  /\bpending\s*\(/, // rspec / jasmine
];

/** Comment-only lines never count (a commented-out assertion is a removed one). */
function isComment(line: string): boolean {
  const t = line.trim();
  return t.startsWith('//') || t.startsWith('/*') || t.startsWith('*') || t.startsWith('--') || (t.startsWith('#') && !t.startsWith('#['));
}

export function isAssertionLine(line: string): boolean {
  return !isComment(line) && ASSERTION.some((r) => r.test(line));
}

export function isSkipLine(line: string): boolean {
  return !isComment(line) && SKIP.some((r) => r.test(line));
}
