/**
 * host-paths.ts: a run's places on the host are rewritten in the PR body, repository places relative to
 * the repository, the others by name; a path only matches where it starts and ends (issue 38).
 */
import { describe, expect, it } from '@jest/globals';
import { homedir, tmpdir } from 'node:os';
import { hostPlaces, withoutHostPaths, withoutHostPathsText } from '../../src/agent/evidence/host-paths.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

const places = hostPlaces({
  worktree: '/srv/p/worktrees/r1',
  scratch: '/srv/tmp/proofpr-r1-x',
  runDir: '/srv/p/runs/r1',
  hidden: ['/srv/p'],
});

describe('host paths', () => {
  it('text - worktree paths read repository-relative (the worktree itself as .), the others by name, the most specific place first', () => {
    const t = (s: string): string => withoutHostPathsText(s, places);
    expect(t('cd /srv/p/worktrees/r1 && node --test /srv/p/worktrees/r1/test/a.js')).toBe('cd . && node --test test/a.js');
    expect(t('HOME=/srv/tmp/proofpr-r1-x/home')).toBe('HOME=<scratch>/home');
    expect(t('see /srv/p/runs/r1/tool-output/k.txt and /srv/p/mirrors/x')).toBe('see <run>/tool-output/k.txt and <host>/mirrors/x');
    expect(t(`${homedir()}/.npmrc`)).toBe('~/.npmrc');
    expect(t(`${tmpdir()}/other`)).toBe('<tmp>/other');
  });

  it('text - a path that only looks like a place is left as it is: a longer name, a place inside another path, a relative path', () => {
    const t = (s: string): string => withoutHostPathsText(s, places);
    expect(t('/srv/p/worktrees/r12/a.js')).toBe('<host>/worktrees/r12/a.js');
    expect(t('/opt/srv/p/worktrees/r1/a.js')).toBe('/opt/srv/p/worktrees/r1/a.js');
    expect(t('srv/p/worktrees/r1/a.js')).toBe('srv/p/worktrees/r1/a.js');
    expect(t('https://example.invalid/srv/p/x')).toBe('https://example.invalid/srv/p/x');
  });

  it('deep - every string of an object is rewritten, numbers and booleans untouched', () => {
    expect(withoutHostPaths({ a: ['/srv/p/worktrees/r1/x', 3], b: { c: true, d: '/srv/p/runs/r1' } }, places)).toEqual({
      a: ['x', 3],
      b: { c: true, d: '<run>' },
    });
  });

  it('PR body - renderSummaryMd with the places renders no string of the evidence with one (a gate detail, a note, a refusal, a finding)', () => {
    const ev: Evidence = {
      version: 1,
      runId: 'r1',
      startedAt: '',
      endedAt: '',
      verdict: 'unverified',
      reason: 'gate failed at /srv/p/worktrees/r1/src/a.ts',
      task: { kind: 'prompt', title: 't' },
      repo: { baseSha: 'b', branch: 'x' },
      gates: [{ name: 'tests-ran', passed: false, detail: 'output of /srv/tmp/proofpr-r1-x/tmp/kept/src/a.ts' }],
      testRuns: [],
      filesChanged: [],
      toolCalls: {},
      denied: [{ tool: 'Read', input: `${homedir()}/.ssh/id_rsa`, rule: 'builtin-deny:path', reason: 'outside the worktree' }],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0, compactions: 0 },
      hookErrors: ['Stop lint: failed in /srv/p/worktrees/r1'],
      changedExpectations: [{ test: 't', base: 'a', now: 'b', failure: 'at /srv/tmp/proofpr-r1-x/tmp/kept/test/a.js:3' }],
    };
    const md = renderSummaryMd(ev, { places });
    expect(md).not.toMatch(/\/srv\//);
    expect(md).not.toContain(homedir() + '/');
    expect(md).toContain('`~/.ssh/id_rsa`');
    expect(md).toContain('  at <scratch>/tmp/kept/test/a.js:3');
    expect(md).toContain('output of \\<scratch\\>/tmp/kept/src/a.ts');
    expect(md).toContain('Hook error: Stop lint: failed in .');
  });
});
