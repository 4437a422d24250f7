/** JUnit ids as the report means them: XML entities in attribute values are decoded (a PR body never shows `&amp;`). */
import { describe, expect, it } from '@jest/globals';
import { junitCases } from '../../src/agent/verification/test-results/runners/junit-cases.js';
import { xmlText } from '../../src/agent/verification/test-results/parsers/xml-tags.js';

describe('JUnit attribute values', () => {
  it('test names and suites keep &, <, >, quotes and character references as written in the source', () => {
    const xml =
      '<testsuites><testsuite name="a &amp; b"><testcase classname="x&lt;T&gt;" name="says &quot;hi&quot; &apos;there&apos; &#233;&#x1F600;">' +
      '<failure/></testcase></testsuite></testsuites>';
    const [c] = junitCases(xml) ?? [];
    expect(c?.suites).toEqual(['a & b']);
    expect(c?.attrs).toEqual({ classname: 'x<T>', name: 'says "hi" \'there\' é😀' });
    expect(c?.outcome).toBe('failed');
  });

  it('an unknown or broken reference stays as it is', () => {
    expect(xmlText('&nbsp; &#0; &#xZZ; & a')).toBe('&nbsp; &#0; &#xZZ; & a');
  });
});
