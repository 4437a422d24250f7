/**
 * Counts equal the runner's own, pytest: the total of pytest's closing summary line — passed, skipped
 * and xfailed tests included, deselected ones (`-k`) not — through a full run that fixes a bug, with
 * the harness's observer (a JUnit report per session); without it (the command replaces PYTHONPATH,
 * so the summary line is read).
 */
import { describe, expect, it, jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fixSteps, makeRepo, runOn, runsOf } from './kit.js';

jest.setTimeout(120_000);

const FILES: Record<string, string> = {
  '.gitignore': '__pycache__/\n.pytest_cache/\n',
  'src/shop.py': 'def total(prices):\n    return sum(prices) + 1\n',
  'tests/test_shop.py': [
    'import pytest',
    '',
    'from shop import total',
    '',
    '',
    'def test_empty():',
    '    assert total([]) == 0',
    '',
    '',
    '@pytest.mark.parametrize("prices,want", [([1], 1), ([1, 2], 3)])',
    'def test_sums(prices, want):',
    '    assert total(prices) == want',
    '',
    '',
    '@pytest.mark.skip(reason="not today")',
    'def test_later():',
    '    assert False',
    '',
    '',
    '@pytest.mark.xfail(reason="a known bug")',
    'def test_known_bug():',
    '    assert total(["x"]) == 0',
    '',
    '',
    'def test_slow():',
    '    assert total([2]) == 2',
    '',
  ].join('\n'),
};

const BUG = 'sum(prices) + 1';
const FIX = 'sum(prices)';

/** pytest's own count of the fixed tree: the numbers of its closing summary line, deselected left out. */
function ownCount(command: string): { own: number; line: string } {
  const repo = makeRepo({ ...FILES, 'src/shop.py': (FILES['src/shop.py'] ?? '').replace(BUG, FIX) });
  const r = spawnSync('bash', ['-c', command], { cwd: repo.dir, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  const line = `${r.stdout}${r.stderr}`.trim().split('\n').at(-1) ?? '';
  const own = [...line.matchAll(/(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)\b/g)].reduce((s, m) => s + Number(m[1]), 0);
  return { own, line };
}

const allow = (command: string) =>
  `test:\n  command: ${command}\npermissions:\n  allow: ["Bash(python3 -m pytest:*)", "Bash(PYTHONPATH=src python3 -m pytest:*)"]\n`;

describe('counts equal the runner’s own: pytest', () => {
  it('observed (a JUnit report per session): verified, the final run counts passed + skipped + xfailed, not deselected', async () => {
    const command = 'python3 -m pytest -q -p no:cacheprovider -o pythonpath=src -k "not slow"';
    const { own, line } = ownCount(command);
    expect(line).toMatch(/^3 passed, 1 skipped, 1 deselected, 1 xfailed in /);
    expect(own).toBe(5);
    const { res } = await runOn(makeRepo(FILES), fixSteps('src/shop.py', BUG, FIX, command), allow(command));
    expect(res.evidence.verdict).toBe('verified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ passed: 3, failed: 0, skipped: 2, total: own });
    expect(final?.source).not.toBe('summary-line');
  });

  it('not observed (the command replaces PYTHONPATH): the summary line gives the same counts, base and agent runs', async () => {
    const command = 'PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider -k "not slow"';
    const { own } = ownCount(command);
    expect(own).toBe(5);
    // Only the counts are this test's subject: the verdict of a run whose base failures have no ids is the gates' (red-green).
    const { res } = await runOn(makeRepo(FILES), fixSteps('src/shop.py', BUG, FIX, command), allow(command));
    const base = res.evidence.testRuns.find((r) => r.kind === 'baseline') ?? res.evidence.baseline;
    expect(base?.counts).toMatchObject({ passed: 0, failed: 3, skipped: 2, total: own });
    const { agent } = runsOf(res);
    expect(agent?.counts).toMatchObject({ passed: 3, failed: 0, skipped: 2, total: own });
    expect(agent?.source).toBe('summary-line');
  });
});
