import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseRepoConfig } from '../../src/config/repo-config.js';

describe('repo config', () => {
  it('config - a missing file means defaults', () => {
    const c = parseRepoConfig(undefined);
    expect(c.trigger).toBe('/agent');
    expect(c.max_turns).toBe(80);
    expect(c.gates.final_run).toBe(true);
    expect(c.authorized).toEqual(['write', 'maintain', 'admin']);
  });

  it('config - an unknown key is an error naming its path', () => {
    expect(() => parseRepoConfig('test:\n  comand: npm test\n')).toThrow(ConfigError);
    try {
      parseRepoConfig('test:\n  comand: npm test\n');
    } catch (e) {
      expect((e as Error).message).toContain('test.comand: unknown key');
    }
  });

  it('config - a wrong type names the field', () => {
    expect(() => parseRepoConfig('max_turns: lots\n')).toThrow(/max_turns/);
  });

  it('config - broken YAML says so', () => {
    expect(() => parseRepoConfig('test: [\n')).toThrow(/YAML does not parse/);
  });
});
