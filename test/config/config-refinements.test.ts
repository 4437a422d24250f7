import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseRepoConfig } from '../../src/config/repo-config.js';

function problems(yaml: string): string[] {
  try {
    parseRepoConfig(yaml);
  } catch (e) {
    if (e instanceof ConfigError) return e.issues;
    throw e;
  }
  return [];
}

describe('config validated deeply at load', () => {
  it('config - a malformed permission rule names its key path and the position', () => {
    expect(problems('permissions:\n  deny: ["Read(./a/**)", "Bash(npm test:*"]\n')).toEqual([
      'permissions.deny[1]: "Bash(npm test:*": missing closing parenthesis (opened at position 5)',
    ]);
  });

  it('config - a rule naming an unknown tool lists the tools', () => {
    expect(problems('permissions:\n  allow: ["Shell(ls)"]\n')[0]).toMatch(
      /^permissions\.allow\[0\]: "Shell\(ls\)": unknown tool "Shell" \(one of Bash, Read/,
    );
  });

  it('config - a hook matcher that is not a regular expression is refused', () => {
    expect(problems('hooks:\n  PostToolUse: [{ matcher: "Edit(", command: "true" }]\n')[0]).toMatch(
      /^hooks\.PostToolUse\[0\]\.matcher: "Edit\(" is not a valid regular expression/,
    );
  });

  it('config - a hook matcher naming a misspelt tool is refused; real regexes are accepted', () => {
    expect(problems('hooks:\n  PreToolUse: [{ matcher: "Edit|Wirte", command: "true" }]\n')).toEqual([
      'hooks.PreToolUse[0].matcher: unknown tool "Wirte" (tools: Bash, Read, Write, Edit, Glob, Grep, TodoWrite, Skill)',
    ]);
    expect(
      problems(
        'hooks:\n  PreToolUse: [{ matcher: "Edit|Write", command: "true" }, { matcher: ".*", command: "true" }, { matcher: "*", command: "true" }]\n',
      ),
    ).toEqual([]);
  });

  it('config - a sweep schedule must be a five-field cron expression with values in range', () => {
    const p = problems(
      'sweeps:\n  - { name: a, prompt: p, schedule: "0 3 * *" }\n  - { name: b, prompt: p, schedule: "0 25 * * *" }\n  - { name: c, prompt: p, schedule: "0 3 * * 1" }\n  - { name: d, prompt: p, schedule: "@daily" }\n',
    );
    expect(p).toHaveLength(2);
    expect(p[0]).toMatch(/^sweeps\[0\]\.schedule: "0 3 \* \*" is not a valid cron expression: has 4 fields, expected 5/);
    expect(p[1]).toMatch(/^sweeps\[1\]\.schedule: "0 25 \* \* \*" is not a valid cron expression/);
  });

  it('config - test.report must stay inside the repository', () => {
    expect(problems('test:\n  report: ../out/junit.xml\n')).toEqual(['test.report: "../out/junit.xml" leaves the repository ("..")']);
    expect(problems('test:\n  report: /tmp/junit.xml\n')).toEqual([
      'test.report: "/tmp/junit.xml" must be relative to the repository root',
    ]);
    expect(problems('test:\n  report: reports/junit.xml\n')).toEqual([]);
  });
});
