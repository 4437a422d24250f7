import { describe, it, expect } from '@jest/globals';
import { readDenyPredicate } from '../../src/agent/permissions/read-deny.js';
import { ConfigError } from '../../src/config/repo-config.js';

const root = '/work/repo';

describe('readDenyPredicate', () => {
  const denied = readDenyPredicate(root, ['Read(./.env)', 'Read(secrets/**)', 'Grep(*.pem)', 'Edit(./src/**)', 'Bash(curl:*)']);

  it('read deny - matches worktree-relative paths the Read, Grep and Glob rules name', () => {
    expect(denied('.env')).toBe(true);
    expect(denied('./.env')).toBe(true);
    expect(denied('secrets/key.txt')).toBe(true);
    expect(denied('secrets/a/b/c.txt')).toBe(true);
    expect(denied('certs/server.pem')).toBe(true);
  });

  it('read deny - leaves other paths, Edit rules and the root alone', () => {
    expect(denied('src/.env')).toBe(false);
    expect(denied('src/app.ts')).toBe(false);
    expect(denied('secrets')).toBe(false);
    expect(denied('')).toBe(false);
    expect(denied('.')).toBe(false);
  });

  it('read deny - accepts absolute paths inside the root and never denies outside it', () => {
    expect(denied(`${root}/.env`)).toBe(true);
    expect(denied(`${root}/secrets/x`)).toBe(true);
    expect(denied('/elsewhere/.env')).toBe(false);
    expect(denied('../.env')).toBe(false);
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
