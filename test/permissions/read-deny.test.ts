import { describe, it, expect } from '@jest/globals';
import { readDenyPredicate } from '../../src/agent/permissions/read-deny.js';
import { ConfigError } from '../../src/config/repo-config.js';

const root = '/work/repo';

describe('readDenyPredicate', () => {
  const denied = readDenyPredicate(root, ['Read(./.env)', 'Read(secrets/**)', 'Grep(*.pem)', 'Edit(./src/**)', 'Bash(curl:*)']);

  it.each(['.env', './.env', 'secrets/key.txt', 'secrets/a/b/c.txt', 'certs/server.pem'])(
    'read deny - matches worktree-relative paths the Read, Grep and Glob rules name: %s',
    (path) => {
      expect(denied(path)).toBe(true);
    },
  );

  it.each(['src/.env', 'src/app.ts', 'secrets', '', '.'])('read deny - leaves other paths, Edit rules and the root alone: "%s"', (path) => {
    expect(denied(path)).toBe(false);
  });

  it.each([
    [`${root}/.env`, true],
    [`${root}/secrets/x`, true],
    ['/elsewhere/.env', false],
    ['../.env', false],
  ])('read deny - accepts absolute paths inside the root and never denies outside it: %s denied %s', (path, answer) => {
    expect(denied(path)).toBe(answer);
  });

  it('read deny - without Read rules nothing is denied', () => {
    expect(readDenyPredicate(root, ['Edit(./.env)'])('.env')).toBe(false);
    expect(readDenyPredicate(root, [])('.env')).toBe(false);
  });

  it('read deny - a malformed rule is a ConfigError naming its index', () => {
    expect(() => readDenyPredicate(root, ['Read(./ok)', 'Nope(x)'])).toThrow(ConfigError);
    expect(() => readDenyPredicate(root, ['Read(./ok)', 'Nope(x)'])).toThrow(/permissions\.deny\[1\]/);
  });
});
