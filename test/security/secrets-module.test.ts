/** src/secrets: one pattern set, one redactor, one placeholder. */
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  REDACTED,
  TOKEN_RULES,
  isSecretEnvName,
  looksLikeSecretContent,
  redactDeep,
  redactText,
  secretValues,
} from '../../src/secrets/index.js';
import { JWT, PEM_BLOCK, SHAPES } from './secrets-shapes.js';

describe('secrets - token rules', () => {
  it('every rule has a unique id, a source and a sample that it matches', () => {
    const ids = TOKEN_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of TOKEN_RULES) {
      expect(rule.source.length).toBeGreaterThan(5);
      const sample = SHAPES[rule.id];
      expect({ id: rule.id, sample: sample !== undefined }).toEqual({ id: rule.id, sample: true });
      expect({ id: rule.id, found: rule.find(sample?.text ?? '').length > 0 }).toEqual({ id: rule.id, found: true });
    }
  });

  it.each(Object.entries(SHAPES))('redactText removes the %s sample', (_id, { text, secret }) => {
    const out = redactText(`before ${text} after`);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
    expect(out.startsWith('before ')).toBe(true);
  });

  it('keeps what is readable around the secret: key names, schemes, hosts, header names', () => {
    expect(redactText('url https://bot:Pw9x7Kq2Zr@git.example.net/x.git')).toBe(`url https://${REDACTED}@git.example.net/x.git`);
    expect(redactText('Authorization: Bearer Tk9zX2v7Lm4Q')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('API_KEY=h7Gq2Lx9Vw3Z next')).toBe(`API_KEY=${REDACTED} next`);
    expect(redactText('"client_secret": "h7Gq2Lx9Vw3Z"')).toBe(`"client_secret": "${REDACTED}"`);
  });

  it('leaves ordinary code and prose alone, and is idempotent', () => {
    const code = [
      'const token = process.env.TOKEN;',
      'password: getPassword()',
      'max_tokens: 4096',
      'author = Jane',
      'see https://example.com/docs and git@github.com:o/r.git',
      'sha 3f786850e387550fdab836ed7e6dc881de23001b',
    ].join('\n');
    expect(redactText(code)).toBe(code);
    const once = redactText(`x ${SHAPES['secretlint/github']?.text} ${PEM_BLOCK} ${JWT}`);
    expect(redactText(once)).toBe(once);
  });

  it('removes every shape when they are printed glued together (a report that dropped the newlines)', () => {
    const glued = Object.values(SHAPES)
      .map((s) => s.text)
      .join('');
    const out = redactText(glued);
    expect(Object.entries(SHAPES).filter(([, s]) => out.includes(s.secret))).toEqual([]);
  });

  it('leaves known values shorter than 8 characters and ordinary command lines alone', () => {
    expect(redactText('the test passed', ['test'])).toBe('the test passed');
    const text = 'npm test -- --runInBand; git diff HEAD~1; Bearer of bad news';
    expect(redactText(text)).toBe(text);
    expect(redactText('k=abcdefgh1234 again abcdefgh1234', ['abcdefgh', 'abcdefgh1234'])).toBe(`k=${REDACTED} again ${REDACTED}`);
  });

  it('removes a private key block that was cut off before its END line', () => {
    const out = redactText('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\nmore');
    expect(out).toBe(`-----BEGIN OPENSSH PRIVATE KEY-----${REDACTED}`);
    expect(redactText(`${out}\nlater text`)).toBe(`${out}\nlater text`);
  });

  it('keeps the documented prefix of a token format, so a reader sees what kind of credential was removed', () => {
    expect(redactText(`a ${SHAPES['secretlint/github']?.text} b`)).toBe(`a ghp_${REDACTED} b`);
    expect(redactText(`${SHAPES['gitlab-token']?.text}`)).toBe(`glpat-${REDACTED}`);
    expect(redactText(`${SHAPES['secretlint/anthropic']?.text}`)).toBe(`sk-ant-${REDACTED}`);
  });
});

describe('secrets - known values', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  });

  it('removes the values of secret-named environment variables and the extra values, in raw and encoded forms', () => {
    process.env.PROOFPR_TEST_DEPLOY_SECRET = 'plain-looking words here';
    const gitToken = 'installation-token-value';
    const b64 = Buffer.from(`x-access-token:${gitToken}`).toString('base64');
    const out = redactText(`a plain-looking words here b ${gitToken} c ${b64} d ${encodeURIComponent('plain-looking words here')}`, [
      gitToken,
    ]);
    expect(out).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED} d ${REDACTED}`);
  });

  it('takes secret names, not locations or short values', () => {
    expect(isSecretEnvName('GITHUB_TOKEN')).toBe(true);
    expect(isSecretEnvName('ANTHROPIC_API_KEY')).toBe(true);
    expect(isSecretEnvName('SSH_AUTH_SOCK')).toBe(false);
    expect(isSecretEnvName('PRIVATE_KEY_PATH')).toBe(false);
    expect(secretValues({ A_TOKEN: 'short', B_SECRET: 'long-enough-value', HOME: '/home/x' })).toEqual(['long-enough-value']);
  });
});

describe('secrets - redactDeep', () => {
  it('redacts every string, replaces values under secret-named keys whole, keeps numbers and keys', () => {
    const gh = SHAPES['secretlint/github']?.text ?? '';
    const value = {
      a: [`x ${gh}`, 3, null],
      nested: { apiKey: 'short', inputTokens: 12, headers: { authorization: 'anything' } },
      when: new Date(0),
    };
    expect(redactDeep(value)).toEqual({
      a: [`x ghp_${REDACTED}`, 3, null],
      nested: { apiKey: REDACTED, inputTokens: 12, headers: { authorization: REDACTED } },
      when: '1970-01-01T00:00:00.000Z',
    });
  });

  it('serializes errors with their message redacted and ends cycles', () => {
    const e = new Error(`failed with ${SHAPES['gitlab-token']?.text}`);
    const cyclic: Record<string, unknown> = { e };
    cyclic.self = cyclic;
    const out = redactDeep(cyclic) as { e: { message: string }; self: unknown };
    expect(out.e.message).toBe(`failed with glpat-${REDACTED}`);
    expect(out.self).toBe('[Circular]');
  });

  it('copies an object shared by two fields twice (a shared reference is not a cycle)', () => {
    const counts = { passed: 3, failed: 0 };
    const out = redactDeep({ tests: { counts }, differential: { kept: { counts } } });
    expect(out.differential.kept.counts).toEqual({ passed: 3, failed: 0 });
    expect(out.tests.counts).toEqual({ passed: 3, failed: 0 });
  });
});

describe('secrets - looksLikeSecretContent', () => {
  it('names the confident rule a credential file matches', () => {
    expect(looksLikeSecretContent(`NPM_TOKEN=${SHAPES['secretlint/npm']?.text}\n`)).toBe('secretlint/npm');
    expect(looksLikeSecretContent(PEM_BLOCK)).toBe('secretlint/privatekey');
    expect(looksLikeSecretContent(`key: ${SHAPES['google-api-key']?.text}`)).toBe('google-api-key');
  });

  it('does not judge a file by loose shapes (a docs URL with a placeholder password, a sample JWT)', () => {
    expect(looksLikeSecretContent('DATABASE_URL=postgres://user:password@localhost/db')).toBeUndefined();
    expect(looksLikeSecretContent(`const sample = "${JWT}";\nconst x = 1;`)).toBeUndefined();
    expect(looksLikeSecretContent('export function add(a, b) { return a + b; }')).toBeUndefined();
  });
});
