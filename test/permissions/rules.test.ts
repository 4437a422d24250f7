import { describe, it, expect } from '@jest/globals';
import { ConfigError } from '../../src/config/repo-config.js';
import { bashRuleMatches, fileRuleMatches, parseRule, parseRules } from '../../src/agent/permissions/rules.js';

describe('rules', () => {
  it('rules - a missing closing parenthesis names the rule and its position', () => {
    expect(() => parseRules(['Bash(git diff)', 'Read(./src/**)', 'Bash(npm test'], 'allow')).toThrow(
      'permissions.allow[2] "Bash(npm test": missing closing parenthesis (opened at position 5)',
    );
  });

  it('rules - malformed rules are ConfigErrors with a fix in the message', () => {
    const bad: Array<[string, RegExp]> = [
      ['', /missing tool name/],
      ['Bsh(ls)', /unknown tool "Bsh"/],
      ['Bash()', /empty specifier/],
      ['Bash(ls) x', /unexpected text after the closing parenthesis/],
      ['Bash(ls && curl:*)', /shell operators/],
      ['Bash(npm:* test)', /":\*" may only end/],
      ['Read(~/.ssh/**)', /inside the worktree/],
      ['Edit(../x)', /".." is not allowed/],
      ['TodoWrite(x)', /takes no specifier/],
    ];
    for (const [text, re] of bad) {
      let err: unknown;
      try {
        parseRule(text, 'permissions.deny[0]');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).toContain('permissions.deny[0]');
    }
  });

  it('rules - a prefix rule matches on word boundaries and an exact rule only exactly', () => {
    const prefix = parseRule('Bash(npm test:*)', 'x');
    expect(bashRuleMatches(prefix, ['npm', 'test'])).toBe(true);
    expect(bashRuleMatches(prefix, ['npm', 'test', '--', 'a'])).toBe(true);
    expect(bashRuleMatches(prefix, ['npm', 'testing'])).toBe(false);
    expect(bashRuleMatches(prefix, ['npm', null])).toBe(false);
    const exact = parseRule('Bash(git diff)', 'x');
    expect(bashRuleMatches(exact, ['git', 'diff'])).toBe(true);
    expect(bashRuleMatches(exact, ['git', 'diff', 'HEAD'])).toBe(false);
    const glob = parseRule('Bash(node scripts/*:*)', 'x');
    expect(bashRuleMatches(glob, ['node', 'scripts/build.js', '--x'])).toBe(true);
    expect(bashRuleMatches(glob, ['node', 'other/build.js'])).toBe(false);
    expect(bashRuleMatches(parseRule('Bash', 'x'), ['anything'])).toBe(true);
  });

  it('rules - file rules are gitignore-style and cover their tool family', () => {
    const r = parseRule('Read(./src/**)', 'x');
    expect(fileRuleMatches(r, 'read', 'src/a/b.ts')).toBe(true);
    expect(fileRuleMatches(r, 'search', 'src/a')).toBe(true);
    expect(fileRuleMatches(r, 'read', 'lib/src/a.ts')).toBe(false);
    expect(fileRuleMatches(r, 'edit', 'src/a.ts')).toBe(false);
    const env = parseRule('Read(.env)', 'x');
    expect(fileRuleMatches(env, 'read', 'packages/api/.env')).toBe(true);
    const e = parseRule('Edit(./docs/**)', 'x');
    expect(fileRuleMatches(e, 'edit', 'docs/x.md')).toBe(true);
  });
});
