/**
 * Logs people can read: pino-pretty lines on a terminal or with LOG_FORMAT=pretty, one JSON object per line
 * otherwise (CI, log shippers) or with LOG_FORMAT=json. A child process imports the built logger and logs
 * a warning with a token field (redacted either way).
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const LOG = pathToFileURL(resolve('build/log.js')).href;

function stderrOf(env: Record<string, string>): string {
  const script = `const { logger } = await import(${JSON.stringify(LOG)}); logger('demo').warn({ token: 'ghs_secret123', step: 'baseline' }, 'still running');`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  }).stderr;
}

describe('log format', () => {
  it('log format - JSON when stderr is not a terminal; pretty with LOG_FORMAT=pretty; secrets redacted in both', () => {
    const parsed = JSON.parse(stderrOf({}).trim()) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: 40, module: 'demo', step: 'baseline', msg: 'still running', token: '[REDACTED]' });
    const pretty = stderrOf({ LOG_FORMAT: 'pretty' });
    expect(() => JSON.parse(pretty.trim())).toThrow();
    expect(pretty).toMatch(/WARN.*still running/);
    expect(pretty).toContain('step: "baseline"');
    expect(pretty).not.toContain('ghs_secret123');
    expect(JSON.parse(stderrOf({ LOG_FORMAT: 'json' }).trim())).toMatchObject({ msg: 'still running' });
  });
});
