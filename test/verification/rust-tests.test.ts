import { describe, expect, it } from '@jest/globals';
import { cfgTestRanges, spliceTests, testsOf, withoutTests } from '../../src/agent/verification/shipped/rust-tests.js';

const code = `pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;
    // a brace in a comment: }
    /* nested /* block */ with } */
    const S: &str = "}";
    const R: &str = r#"}"#;
    const C: char = '}';
    fn lt<'a>(x: &'a str) -> &'a str { x }
    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }
}

pub fn after() {}
`;

describe("Rust's inline tests", () => {
  it('finds the #[cfg(test)] module by Rust’s lexical rules (braces in strings, raw strings, chars, comments, lifetimes)', () => {
    const [r, ...rest] = cfgTestRanges(code);
    expect(rest).toEqual([]);
    const text = code.slice(r!.start, r!.end);
    expect(text.startsWith('#[cfg(test)]\nmod tests {')).toBe(true);
    expect(text.trimEnd().endsWith('}')).toBe(true);
    expect(withoutTests(code)).toContain('pub fn after() {}');
    expect(withoutTests(code)).not.toContain('assert_eq');
  });

  it('takes cfg(all(test, …)) and single items; not cfg(not(test)) or cfg(any(test, …)) or #[test] outside', () => {
    const src = `#[cfg(all(test, unix))]\nuse std::fs;\n#[cfg(not(test))]\nfn real() {}\n#[cfg(any(test, feature = "x"))]\nfn maybe() {}\n#[derive(Debug)]\n#[cfg(test)]\nstruct Fake;\n`;
    const parts = cfgTestRanges(src).map((r) => src.slice(r.start, r.end).trim());
    expect(parts).toEqual(['#[cfg(all(test, unix))]\nuse std::fs;', '#[derive(Debug)]\n#[cfg(test)]\nstruct Fake;']);
  });

  it('splices: the code of one version with the inline tests of another', () => {
    const fixed = code.replace('a + b', 'a.wrapping_add(b)');
    const newTest = code.replace('assert_eq!(add(1, 2), 3);', 'assert_eq!(add(2, 2), 4);');
    const kept = spliceTests(fixed, code);
    expect(kept).toContain('a.wrapping_add(b)');
    expect(testsOf(kept)).toBe(testsOf(code));
    const reverted = spliceTests(code, newTest);
    expect(reverted).toContain('a + b');
    expect(testsOf(reverted)).toContain('add(2, 2), 4');
  });
});
