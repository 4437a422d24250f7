import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkProvider } from '../../src/hosts/cli/doctor/provider-check.js';
import { doctorCommand } from '../../src/hosts/cli/doctor-command.js';
import { tempDir } from '../kit/temp.js';

/** `proofpr doctor` with provider bedrock or vertex checks that provider's settings, not ANTHROPIC_API_KEY. */
const home = tempDir('proofpr-doctor-provider-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('doctor: model provider', () => {
  it('bedrock: names the region and the credential source (OIDC session keys), warns when none is visible', () => {
    const ok = checkProvider('bedrock', 'PROOFPR_PROVIDER', {
      HOME: home,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'ASIA…',
      AWS_SECRET_ACCESS_KEY: 's',
      AWS_SESSION_TOKEN: 't',
    });
    expect(ok.status).toBe('ok');
    expect(ok.detail).toContain('bedrock (PROOFPR_PROVIDER) in eu-west-1');
    expect(ok.detail).toContain('session token');
    const none = checkProvider('bedrock', 'provider: in .github/proofpr.yml', { HOME: home });
    expect(none.status).toBe('warn');
    expect(none.detail).toContain('AWS_REGION unset');
    expect(none.fix).toContain('aws-actions/configure-aws-credentials');
  });

  it.each(['bedrock', 'vertex'] as const)('%s without its SDK installed: fails naming the package and the install line', (provider) => {
    const r = checkProvider(
      provider,
      'PROOFPR_PROVIDER',
      { HOME: home, AWS_REGION: 'eu-west-1', CLOUD_ML_REGION: 'us-east5' },
      () => false,
    );
    expect(r.status).toBe('fail');
    expect(r.detail).toContain(`@anthropic-ai/${provider}-sdk is not installed`);
    expect(r.fix).toBe(
      `npm install @anthropic-ai/${provider}-sdk next to proofpr (in the project that depends on it, or with -g beside a global proofpr)`,
    );
  });

  it('vertex: a missing region fails naming CLOUD_ML_REGION; a missing credential file fails naming it', () => {
    const noRegion = checkProvider('vertex', 'PROOFPR_PROVIDER', { HOME: home });
    expect(noRegion.status).toBe('fail');
    expect(noRegion.detail).toContain('CLOUD_ML_REGION');
    const broken = checkProvider('vertex', 'PROOFPR_PROVIDER', {
      HOME: home,
      CLOUD_ML_REGION: 'us-east5',
      GOOGLE_APPLICATION_CREDENTIALS: join(home, 'missing.json'),
    });
    expect(broken.status).toBe('fail');
    expect(broken.detail).toContain('missing.json');
    const file = join(home, 'gha-creds.json');
    writeFileSync(file, '{}');
    const ok = checkProvider('vertex', 'PROOFPR_PROVIDER', {
      HOME: home,
      CLOUD_ML_REGION: 'us-east5',
      ANTHROPIC_VERTEX_PROJECT_ID: 'p1',
      GOOGLE_APPLICATION_CREDENTIALS: file,
    });
    expect(ok).toMatchObject({ status: 'ok' });
    expect(ok.detail).toContain('project p1');
  });

  it('doctor reports the provider line instead of the API key check', async () => {
    const repo = join(home, 'repo');
    mkdirSync(join(repo, '.github'), { recursive: true });
    writeFileSync(join(repo, '.github', 'proofpr.yml'), 'provider: vertex\n');
    const lines: string[] = [];
    await doctorCommand({ repo }, { PATH: process.env.PATH ?? '', HOME: home, PROOFPR_HOME: join(home, '.proofpr') }, (s) => lines.push(s));
    const text = lines.join('');
    expect(text).toContain('FAIL  model provider: vertex (provider: in .github/proofpr.yml)');
    expect(text).toContain('CLOUD_ML_REGION');
    expect(text).not.toContain('ANTHROPIC_API_KEY is not set');
  }, 120_000);
});
