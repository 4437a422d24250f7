import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionFixture, git, FIX_STEPS, NOTHING_STEPS, type ActionFixture } from './harness.js';

const SWEEPS = `
sweeps:
  - name: numeric-sort
    schedule: "0 3 * * 1"
    prompt: "Find list sorting that compares numbers as strings and make it numeric."
    labels: [maintenance]
`;
const schedule = () => JSON.parse(readFileSync('test/fixtures/events/schedule.json', 'utf8')) as unknown;

/** The demo repository with a green test suite (the failing test removed) and a sweep configured. */
function greenWithSweep(dir: string): void {
  const test = join(dir, 'test/stats.test.js');
  writeFileSync(test, readFileSync(test, 'utf8').replace(/test\('median of numbers with different digit counts'[\s\S]*?\n\}\);\n/, ''));
  const cfg = join(dir, '.github/proofpr.yml');
  writeFileSync(cfg, readFileSync(cfg, 'utf8') + SWEEPS);
}

describe('action: scheduled sweeps', () => {
  let fx: ActionFixture;
  beforeAll(async () => {
    fx = await actionFixture(greenWithSweep);
  });
  afterAll(async () => fx.close());

  it('action - a scheduled sweep opens a PR, the next run updates it, and a run with nothing to change opens nothing', async () => {
    fx.setSteps(FIX_STEPS);
    const first = await fx.run('schedule', schedule());
    expect(first.stderr).not.toContain('internal error');
    expect(first.code).toBe(0);
    expect(first.outputs.verdict).toBe('verified');
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    expect(first.outputs.branch).toBe(`proofpr/sweep-numeric-sort-${day}`);
    expect(fx.github.pulls).toHaveLength(1);
    const pr = fx.github.pulls[0]!;
    expect(first.outputs.pr_number).toBe(String(pr.number));
    expect(pr).toMatchObject({ head: first.outputs.branch, base: 'main', state: 'open' });
    expect(pr.labels.sort()).toEqual(['maintenance', 'proofpr']);
    expect(pr.body).toContain('proofpr: verified');
    expect(pr.body).toMatch(/\*\*Sweep:\*\* numeric-sort \(schedule `0 3 \* \* 1`\)/);
    expect(pr.body).toMatch(/### Baseline\n\n`node --test` on the base [0-9a-f]{12}: exit 0, 3 executed, 0 failed/);
    const evidence = JSON.parse(readFileSync(first.outputs.evidence_path ?? '', 'utf8')) as {
      task: { kind: string; sweep: string };
      baseline: { exitCode: number; by: string };
      pr: { number: number };
    };
    expect(evidence.task).toMatchObject({ kind: 'sweep', sweep: 'numeric-sort' });
    expect(evidence.baseline).toMatchObject({ exitCode: 0, by: 'harness' });
    expect(evidence.pr.number).toBe(pr.number);
    expect(git(fx.bare, 'show', `${pr.head}:src/stats.js`)).toContain('.sort((a, b) => a - b)');
    expect(first.summary).toContain('# proofpr sweep `numeric-sort`');

    const second = await fx.run('schedule', schedule());
    expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' });
    expect(fx.github.pulls).toHaveLength(1);
    expect(second.outputs.pr_number).toBe(String(pr.number));
    expect(fx.github.log).toContain(`PATCH /repos/acme/demo/pulls/${pr.number}`);
    expect(second.stdout).toMatch(new RegExp(`updated #${pr.number}`));

    // The PR is merged; the next sweep finds nothing to change and opens nothing.
    pr.state = 'closed';
    fx.commitOnMain('src/stats.js', git(fx.bare, 'show', `${pr.head}:src/stats.js`) + '\n', 'Merge the sweep');
    fx.setSteps(NOTHING_STEPS);
    const third = await fx.run('schedule', schedule());
    expect(third.code).toBe(0);
    expect(fx.github.pulls).toHaveLength(1);
    expect(third.outputs.pr_number).toBe('');
    expect(third.summary).toContain('nothing to change: no pull request opened');
    // Three Action runs in one test: past the default 60 s on a loaded machine.
  }, 180_000);
});

describe('action: a sweep on a red base', () => {
  let fx: ActionFixture;
  beforeAll(async () => {
    // The demo as shipped: one test already fails on the base. Two sweeps: the default (record) and require_green.
    fx = await actionFixture((dir) => {
      const cfg = join(dir, '.github/proofpr.yml');
      writeFileSync(
        cfg,
        readFileSync(cfg, 'utf8') +
          SWEEPS +
          '  - name: strict\n    schedule: "0 5 * * *"\n    prompt: "Tidy the code."\n    baseline: require_green\n',
      );
    });
  });
  afterAll(async () => fx.close());

  it('action - baseline: require_green on a base whose tests already fail says so, exits 3 and never calls the model', async () => {
    fx.setSteps(FIX_STEPS);
    const r = await fx.run('schedule', { schedule: '0 5 * * *' });
    expect(r.code).toBe(3);
    expect(r.outputs.verdict).toBe('unverified');
    expect(r.summary).toMatch(
      /the tests already fail on the base before any change \(`node --test` on the base [0-9a-f]{12}: exit 1, 4 executed, 1 failed\)/,
    );
    expect(fx.model.requests).toHaveLength(0);
    expect(fx.github.pulls).toHaveLength(0);
    const evidence = JSON.parse(readFileSync(r.outputs.evidence_path ?? '', 'utf8')) as { verdict: string; baseline: { exitCode: number } };
    expect(evidence).toMatchObject({ verdict: 'unverified', baseline: { exitCode: 1 } });
  });

  it('action - baseline: record - a sweep whose prompt fixes the failing test opens a PR with the base red and the final run green', async () => {
    fx.setSteps(FIX_STEPS);
    const r = await fx.run('schedule', schedule());
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('verified');
    const pr = fx.github.pulls.find((p) => p.head.startsWith('proofpr/sweep-numeric-sort-'));
    expect(pr?.body).toContain('**Base:** 🔴 red before any change (exit 1, 4 executed, 1 failed)');
    expect(pr?.body).toContain('red on the base, recorded (baseline: record)');
    const evidence = JSON.parse(readFileSync(r.outputs.evidence_path ?? '', 'utf8')) as {
      baseline: { exitCode: number; counts: { failed: number } };
      testRuns: Array<{ by: string; exitCode: number; counts: { failed: number; passed: number } }>;
    };
    expect(evidence.baseline).toMatchObject({ exitCode: 1, counts: { failed: 1 } });
    const final = evidence.testRuns.filter((t) => t.by === 'harness').at(-1);
    expect(final).toMatchObject({ exitCode: 0, counts: { failed: 0, passed: 4 } });
  });
});
