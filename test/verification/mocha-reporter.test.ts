import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mochaRunner } from '../../src/agent/verification/runners/mocha.js';

/** A mocha runner as every version emits it: 'test end' per test, then pass / fail / pending, then 'end'. */
function fakeMochaRun(Reporter: new (runner: EventEmitter) => unknown, root: string): void {
  const runner = new EventEmitter();
  new Reporter(runner);
  const t = (title: string, parent = 'add') => ({ title, file: join(root, 'test/math.spec.js'), fullTitle: () => `${parent} ${title}` });
  const ok = t('adds');
  const bad = t('is wrong on purpose');
  const skip = t('later');
  runner.emit('pass', ok);
  runner.emit('test end', ok);
  runner.emit('fail', bad, new Error('expected 3 to equal 4'));
  runner.emit('test end', bad);
  runner.emit('pending', skip);
  runner.emit('test end', skip);
  // A failing hook is a failure without a test end.
  runner.emit(
    'fail',
    { title: '"before all" hook', file: join(root, 'test/db.spec.js'), fullTitle: () => 'db "before all" hook' },
    new Error('no db'),
  );
  runner.emit('end');
}

describe("the harness's mocha reporter (works with every mocha version: no --reporter-option output=)", () => {
  it('mocha reporter - writes the json reporter shape to PROOFPR_MOCHA_REPORT, which the mocha runner parses per test', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'proofpr-mocha-rep-')));
    const report = join(dir, 'x.report');
    const req = mochaRunner.request(report, dir);
    expect(req.args).toEqual(['--reporter', join(dir, 'proofpr-mocha-reporter.cjs')]);
    expect(req.env).toEqual({ PROOFPR_MOCHA_REPORT: report });
    for (const f of req.files ?? []) writeFileSync(f.path, f.content);
    const before = process.env.PROOFPR_MOCHA_REPORT;
    const write = process.stdout.write;
    const printed: string[] = [];
    process.env.PROOFPR_MOCHA_REPORT = report;
    process.stdout.write = ((s: string) => printed.push(s) > 0) as unknown as typeof process.stdout.write;
    try {
      fakeMochaRun(createRequire(import.meta.url)(join(dir, 'proofpr-mocha-reporter.cjs')) as new (r: EventEmitter) => unknown, dir);
    } finally {
      process.stdout.write = write;
      if (before === undefined) delete process.env.PROOFPR_MOCHA_REPORT;
      else process.env.PROOFPR_MOCHA_REPORT = before;
    }
    expect(printed.join('')).toContain('FAILED add is wrong on purpose: expected 3 to equal 4');
    const rep = mochaRunner.parse(readFileSync(report, 'utf8'), dir);
    expect(rep?.counts).toEqual({ passed: 1, failed: 2, skipped: 1, total: 4 });
    expect(rep?.tests.map((x) => [x.id, x.outcome])).toEqual([
      ['test/math.spec.js > add adds', 'passed'],
      ['test/math.spec.js > add is wrong on purpose', 'failed'],
      ['test/math.spec.js > add later', 'skipped'],
      ['test/db.spec.js > db "before all" hook', 'failed'],
    ]);
  });
});
