/** "Did you mean …?" for unknown config keys, from the schema's own keys (src/config/did-you-mean.ts). */
import { describe, expect, it } from '@jest/globals';
import { parseRepoConfig, repoConfigSchema } from '../../src/config/repo-config.js';
import { closestKey, knownKeysAt } from '../../src/config/did-you-mean.js';

const errorOf = (yaml: string): string => {
  try {
    parseRepoConfig(yaml);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};

describe('config: did you mean', () => {
  it.each([
    ['test:\n  comand: npm test\n', 'test.comand: unknown key: did you mean `command`?'],
    ['max_turn: 5\n', 'max_turn: unknown key: did you mean `max_turns`?'],
    ['permissions:\n  alow: []\n', 'permissions.alow: unknown key: did you mean `allow`?'],
    [
      'sweeps:\n  - { name: n, schedule: "0 3 * * *", prompt: p, shedule: x }\n',
      'sweeps[0].shedule: unknown key: did you mean `schedule`?',
    ],
  ])('%j → %s', (yaml, message) => {
    expect(errorOf(yaml)).toContain(message);
  });

  it('a key far from every known one gets no guess', () => {
    expect(errorOf('zebra: 1\n')).toContain('zebra: unknown key (remove it or check the spelling)');
  });

  it('the known keys come from the schema at the path (objects, arrays, wrappers)', () => {
    expect(knownKeysAt(repoConfigSchema, [])).toEqual(expect.arrayContaining(['test', 'permissions', 'max_turns']));
    expect(knownKeysAt(repoConfigSchema, ['test'])).toEqual(expect.arrayContaining(['command']));
    expect(knownKeysAt(repoConfigSchema, ['sweeps', 0])).toEqual(expect.arrayContaining(['name', 'schedule', 'prompt']));
    expect(knownKeysAt(repoConfigSchema, ['nope'])).toEqual([]);
    expect(closestKey('COMMAND', ['command'])).toBe('command');
  });
});
