/**
 * docs/architecture.md stays true to the code: its folder table names every folder of src/ (and no folder that
 * does not exist), and its list of the run's steps carries the same numbers as the step comments of
 * src/run/run-task.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const doc = readFileSync('docs/architecture.md', 'utf8');

function section(title: string): string {
  const start = doc.indexOf(`## ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 3);
  return doc.slice(start, end < 0 ? undefined : end);
}

function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [join(dir, e.name), ...folders(join(dir, e.name))]);
}

describe('architecture page', () => {
  it('the folder table has one row per folder of src/, and only those', () => {
    const rows = [...section('Folders').matchAll(/^\| `(src\/[^`]+)` \|/gm)].map((m) => m[1]);
    const actual = folders('src').map((f) => f.split('\\').join('/'));
    expect([...rows].sort()).toEqual([...actual].sort());
  });

  it("the run's steps are numbered as in run-task.ts", () => {
    const code = readFileSync('src/run/run-task.ts', 'utf8');
    const codeSteps = [...code.matchAll(/^\s*\/\/ (\d+[a-z]?)\. /gm)].map((m) => m[1]);
    const docSteps = [...section("The run's steps").matchAll(/^\s*(\d+[a-z]?)\. /gm)].map((m) => m[1]);
    expect(codeSteps.length).toBeGreaterThan(5);
    expect(docSteps).toEqual(codeSteps);
  });
});
