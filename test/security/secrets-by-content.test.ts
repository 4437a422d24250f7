/*
 * Secrets by content (issue 37): a tracked file is masked for what it holds, not for its name. The
 * corpora and the rule they were written by are in secrets-by-content-corpus.ts; the figures (first try
 * against the name-based code, then against these rules) are in docs/benchmarks.md, "Secrets by content".
 */
import {
  binaryCredential,
  credentialValue,
  findCredentials,
  hasCredentialShape,
  isContentCheckedPath,
  secretContentRule,
  secretStringsIn,
} from '../../src/secrets/files.js';
import { maskedContent } from '../../src/secrets/placeholder.js';
import { BENIGN_FIXTURES, CREDENTIAL_FILES, HELD_OUT_BENIGN, HELD_OUT_CREDENTIALS, fake } from './secrets-by-content-corpus.js';

const judge = (path: string, content: string | Buffer): string | undefined =>
  secretContentRule(path, typeof content === 'string' ? Buffer.from(content) : content);

describe('secrets by content - the corpora', () => {
  it.each(CREDENTIAL_FILES.map((f) => [f.tool, f.path, f.content] as const))(
    'credential file of %s is masked at %s and at fixtures/a.txt',
    (_t, path, content) => {
      expect(judge(path, content)).toBeDefined();
      expect(judge('fixtures/a.txt', content)).toBeDefined();
    },
  );

  it.each(BENIGN_FIXTURES.map((f) => [f.tool, f.path, f.content] as const))(
    'benign fixture of %s at %s is not masked',
    (_t, path, content) => {
      expect({ path, found: findCredentials(content) }).toEqual({ path, found: [] });
      expect(judge(path, content)).toBeUndefined();
    },
  );

  it('held out: at least 28 of the 30 credential files are masked wherever they are, no benign fixture is', () => {
    const caught = HELD_OUT_CREDENTIALS.filter((f) => judge(f.path, f.content) && judge('fixtures/a.txt', f.content));
    expect(caught.length).toBeGreaterThanOrEqual(28);
    expect(HELD_OUT_BENIGN.filter((f) => judge(f.path, f.content)).map((f) => f.path)).toEqual([]);
  });
});

describe('secrets by content - the rules', () => {
  it('a tracked .env of fixtures is visible; one holding an AWS key is not, and its secrets are the matched strings', () => {
    expect(judge('tests/.env', 'BASIC=basic\nSECRET=xxx\nPASSWORD=test\n')).toBeUndefined();
    const id = `AKIA${fake(1, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`;
    const secret = fake(2, 40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+');
    const env = `REGION=eu-west-1\nAWS_ACCESS_KEY_ID=${id}\nAWS_SECRET_ACCESS_KEY=${secret}\n`;
    expect(judge('.env', env)).toBeDefined();
    const strings = secretStringsIn('.env', Buffer.from(env));
    expect(strings).toEqual(expect.arrayContaining([id, secret]));
    expect(strings).not.toContain('eu-west-1');
  });

  it('fixture values are not credentials; real-shaped ones are', () => {
    for (const v of [
      'test',
      'basic',
      'xxx',
      'changeme',
      'change-me',
      '<token>',
      '${DB_PASSWORD}',
      'postgres',
      'hunter2',
      'your-api-key',
      'true',
      '12345678',
      'keyboard cat',
      'bcrypt-sha256',
      'django-insecure-abcdefghij1234567890',
    ])
      expect([v, credentialValue(v)]).toEqual([v, false]);
    for (const v of ['Xk9#mP2!qL7z', fake(3, 32), fake(4, 40, '0123456789abcdef'), `{AQAAABAAAAAQ${fake(5, 40)}}`])
      expect([v, credentialValue(v)]).toEqual([v, true]);
  });

  it('each credential-file syntax is recognised: pgpass, netrc, ini, XML element, NuGet key/value, Ruby YAML symbol, terraform block, htpasswd', () => {
    const pw = 'Rq7#vN2!xT9pLw4$';
    const cases: Array<[string, string]> = [
      ['pgpass', `db:5432:app:app:${pw}\n`],
      ['spaced-assignment', `machine api.example.com login joe password ${pw}\n`],
      ['assignment', `[client]\npassword = ${pw}\n`],
      ['xml-element', `<server><password>${pw}</password></server>`],
      ['xml-key-value', `<add key="ClearTextPassword" value="${pw}" />`],
      ['assignment', `---\n:rubygems_api_key: ${fake(6, 48, '0123456789abcdef')}\n`],
      ['assignment', `credentials "app.terraform.io" {\n  token = "${fake(7, 40)}"\n}\n`],
      ['password-hash', `admin:$apr1$abcdefgh$${fake(8, 22)}\n`],
    ];
    for (const [rule, text] of cases)
      expect([text, findCredentials(text).map((m) => m.rule)]).toEqual([text, expect.arrayContaining([rule])]);
  });

  it('a fixture word inside a random token does not make it a fixture; an .npmrc auth line is an assignment', () => {
    expect(credentialValue('CNRYdepsecret9b2e5d8a1f4c')).toBe(true);
    expect(credentialValue('test-secret')).toBe(false);
    expect(credentialValue('alice-password')).toBe(false);
    expect(judge('node_modules/dep/.npmrc', `//registry.npmjs.org/:_authToken=${fake(10, 36)}\n`)).toBe('assignment');
    expect(judge('.npmrc', '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n')).toBeUndefined();
  });

  it('documented example keys and filled-in placeholders are not tokens', () => {
    expect(
      findCredentials('aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n'),
    ).toEqual([]);
    expect(findCredentials('STRIPE_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\n')).toEqual([]);
    expect(findCredentials('DATABASE_URL=postgres://postgres:postgres@localhost:5432/app\n')).toEqual([]);
  });

  it("the effects corpus's tracked canaries stay masked by content (master.key, terraform state, service account, vault token)", () => {
    expect(judge('config/master.key', 'CNRYmasterkey84c2e7b1a5f9\n')).toBe('bare-token');
    expect(
      judge(
        'terraform.tfstate',
        JSON.stringify({ version: 4, resources: [{ type: 'aws_db_instance', password: 'CNRYtfstate0b9d3e6f2a41' }] }, null, 2),
      ),
    ).toBeDefined();
    expect(
      judge('deploy/service-account.json', JSON.stringify({ type: 'service_account', private_key: 'CNRYsvcacctf3c8a2d5e019' }, null, 2)),
    ).toBeDefined();
    expect(judge('.vault-token', 'hvs.CNRYvaulttok6e1b7c4a9d38\n')).toBeDefined();
  });

  it('the placeholder a masked file shows is no secret itself', () => {
    expect(hasCredentialShape(maskedContent('.env'))).toBe(false);
  });

  it('source code and documentation are not judged by content (tests carry fake tokens); data files and dotfiles are', () => {
    const token = `ghp_${fake(9, 36)}`;
    expect(judge('test/redact.test.ts', `const t = "${token}";`)).toBeUndefined();
    expect(judge('README.md', `export GITHUB_TOKEN=${token}`)).toBeUndefined();
    expect(judge('config/ci.yml', `token: ${token}\n`)).toBeDefined();
    expect(isContentCheckedPath('.pgpass')).toBe(true);
    expect(isContentCheckedPath('deploy.sh')).toBe(true);
  });

  it('binary keystores are recognised by their leading bytes, whatever their name; other binaries are not', () => {
    const der = (version: number, next: number): Buffer => Buffer.from([0x30, 0x82, 0x01, 0x00, 0x02, 0x01, version, next, 0, 0, 0, 0]);
    expect(binaryCredential(der(3, 0x30))).toBe('pkcs12');
    expect(binaryCredential(der(0, 0x02))).toBe('der-private-key');
    expect(binaryCredential(Buffer.from([0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2]))).toBe('java-keystore');
    expect(binaryCredential(Buffer.from([0x03, 0xd9, 0xa2, 0x9a, 0x67, 0xfb, 0x4b, 0xb5]))).toBe('keepass-database');
    expect(binaryCredential(Buffer.from([0x94, 0x20, 0x04, 0, 0]))).toBe('openpgp-secret-key');
    expect(judge('fixtures/a.bin', Buffer.concat([der(3, 0x30), Buffer.alloc(4)]))).toBe('pkcs12');
    expect(judge('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))).toBeUndefined();
    // An X.509 certificate (public) in DER: SEQUENCE, then SEQUENCE (tbsCertificate), not INTEGER.
    expect(binaryCredential(Buffer.from([0x30, 0x82, 0x03, 0x00, 0x30, 0x82, 0x02, 0x00, 0xa0, 0x03]))).toBeUndefined();
  });
});

describe('secrets by content - found on real repositories', () => {
  it('a data file that is one assignment is no bare token (toml-test spec-int-max.toml); a padded base64 token still is', () => {
    expect(judge('tests/data/valid/integer/spec-int-max.toml', 'max=9_223_372_036_854_775_807\n')).toBeUndefined();
    expect(judge('tests/data/valid/integer/spec-int-min.toml', 'min=-9_223_372_036_854_775_808\n')).toBeUndefined();
    expect(judge('deploy/token', `${fake(152, 43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')}=\n`)).toBeDefined();
  });
});
