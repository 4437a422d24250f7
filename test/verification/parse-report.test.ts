import { copyFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { parseReport } from '../../src/agent/verification/test-results/parse-report.js';
import { tempDir } from '../kit/temp.js';

const reports = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'reports');
const c = (passed: number, failed: number, skipped: number, total: number) => ({ passed, failed, skipped, total });

describe('parseReport', () => {
  let tmp: string;
  let startedAtMs: number;
  beforeEach(() => {
    tmp = tempDir('proofpr-report-');
    startedAtMs = Date.now() - 5_000;
  });

  const fresh = (name: string): string => {
    const p = join(tmp, name);
    copyFileSync(join(reports, name), p);
    return p;
  };

  it.each([
    ['pytest-junit.xml', 'junit', c(4, 1, 2, 7)],
    ['pytest-junit-zero.xml', 'junit', c(0, 0, 0, 0)],
    ['node-junit.xml', 'junit', c(4, 1, 2, 7)],
    ['nested-junit.xml', 'junit', c(6, 2, 1, 9)],
    ['jest.json', 'jest-json', c(4, 1, 2, 7)],
    ['jest-zero.json', 'jest-json', c(0, 0, 7, 7)],
    ['vitest.json', 'jest-json', c(3, 1, 2, 6)],
  ])('report - %s is read as %s', (name, source, counts) => {
    expect(parseReport(fresh(name), startedAtMs)).toEqual({ counts, source });
  });

  it('report - a report older than the run start is a stale one and is ignored', () => {
    const p = fresh('jest.json');
    const old = new Date(Date.now() - 60_000);
    utimesSync(p, old, old);
    expect(parseReport(p, Date.now() - 1_000)).toBeUndefined();
  });

  it('report - a report dated after the run ended is a forged one and is ignored', () => {
    const p = fresh('jest.json');
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(p, future, future);
    expect(parseReport(p, startedAtMs, Date.now())).toBeUndefined();
    // Without a known end only the start is checked.
    expect(parseReport(p, startedAtMs)?.source).toBe('jest-json');
    const now = new Date();
    utimesSync(p, now, now);
    expect(parseReport(p, startedAtMs, now.getTime())?.source).toBe('jest-json');
  });

  it('report - a missing file, an empty one and foreign JSON give no counts', () => {
    expect(parseReport(join(tmp, 'nope.xml'), startedAtMs)).toBeUndefined();
    writeFileSync(join(tmp, 'empty.json'), '');
    expect(parseReport(join(tmp, 'empty.json'), startedAtMs)).toBeUndefined();
    writeFileSync(join(tmp, 'other.json'), '{"passed": 3}');
    expect(parseReport(join(tmp, 'other.json'), startedAtMs)).toBeUndefined();
    writeFileSync(join(tmp, 'other.xml'), '<html><body>hi</body></html>');
    expect(parseReport(join(tmp, 'other.xml'), startedAtMs)).toBeUndefined();
  });

  it('report - junit testsuite attributes with single quotes and no testcases are summed', () => {
    const p = join(tmp, 'r.xml');
    writeFileSync(
      p,
      "<testsuites><testsuite tests='3' failures='1' errors='0' skipped='1'/><testsuite tests=\"2\" failures=\"0\"></testsuite></testsuites>",
    );
    expect(parseReport(p, startedAtMs)).toEqual({ counts: c(3, 1, 1, 5), source: 'junit' });
  });
});
