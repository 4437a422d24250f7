/**
 * provider: bedrock | vertex. A scripted fix runs end to end (runTask, real git, real tests) with the real
 * model adapter on the Anthropic SDK's own Bedrock and Vertex clients, pointed at local endpoints shaped as
 * those clouds answer (test/fakes/cloud-model-server.ts): Bedrock's binary event stream behind SigV4 from
 * the AWS environment variables, Vertex's server-sent events behind a bearer token the Google auth library
 * obtains through a workload-identity-federation exchange (the OIDC set-up) from a credential file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import nock from 'nock';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { createModelClient } from '../../src/model/anthropic.js';
import { cloudSdkInstalled, ProviderConfigError, providerSettings, resolveProvider } from '../../src/model/provider.js';
import { runTask } from '../../src/run/run-task.js';
import { FAKE_ACCESS_TOKEN, startFakeCloudServer, type FakeCloudServer } from '../fakes/cloud-model-server.js';
import { tempDir } from '../kit/temp.js';

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'sums', private: true, scripts: { test: 'node --test' } }),
  'src/sum.js': 'exports.sum = (xs) => xs.reduce((a, x) => a + x, 1);\n',
  'test/sum.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sum } = require('../src/sum');\n" +
    "test('sum of nothing is 0', () => assert.strictEqual(sum([]), 0));\ntest('sum adds', () => assert.strictEqual(sum([2, 3]), 5));\n",
};
const YAML = 'test:\n  command: npm test\npermissions:\n  allow: ["Bash(npm test:*)"]\ngates:\n  max_stop_blocks: 1\n';

/** The session the fake endpoint plays, as Messages API content (what the SDK streams back). */
const SCRIPT: unknown[] = [
  { content: [{ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: 'src/sum.js' } }] },
  {
    content: [
      { type: 'text', text: 'The fold starts at 1.' },
      {
        type: 'tool_use',
        id: 'toolu_02',
        name: 'Edit',
        input: { file_path: 'src/sum.js', old_string: 'a + x, 1)', new_string: 'a + x, 0)' },
      },
    ],
  },
  { content: [{ type: 'tool_use', id: 'toolu_03', name: 'Bash', input: { command: 'npm test' } }] },
  { content: [{ type: 'text', text: 'Fixed: sum() starts from 0; the tests pass.' }], usage: { input_tokens: 1200, output_tokens: 40 } },
];

const saved: Record<string, string | undefined> = {};
const VARS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_REGION',
  'AWS_PROFILE',
  'AWS_BEARER_TOKEN_BEDROCK',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUD_ML_REGION',
  'ANTHROPIC_VERTEX_PROJECT_ID',
  'GOOGLE_CLOUD_PROJECT',
  'GCLOUD_PROJECT',
  'PROOFPR_PROVIDER',
];
let work: string;

function setEnv(vars: Record<string, string>): void {
  for (const v of VARS) delete process.env[v];
  Object.assign(process.env, vars);
}

function makeRepo(name: string): string {
  const dir = join(work, name);
  for (const [p, t] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  const git = (args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git(['init', '-q', '-b', 'main']);
  git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '-A']);
  git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'initial']);
  return dir;
}

async function fixThrough(provider: 'bedrock' | 'vertex', server: FakeCloudServer) {
  const repoDir = makeRepo(`repo-${provider}`);
  const model = createModelClient({ provider, baseURL: server.url, maxRetries: 0 });
  return runTask({
    repoDir,
    branch: `proofpr/1-sum-${provider}`,
    task: { kind: 'issue', issue: 1, title: 'sum([]) is 1', body: 'sum([]) returns 1; expected 0' },
    config: parseRepoConfig(`provider: ${provider}\n${YAML}`),
    model,
    modelId: 'claude-sonnet-5-5',
    mode: 'fix',
    runId: `prov-${provider}-${Date.now()}`,
    runDir: join(work, `run-${provider}`),
    worktreesDir: join(work, `worktrees-${provider}`),
  });
}

beforeAll(() => {
  // The fake endpoints listen on 127.0.0.1: another test file in this worker may have left nock's net-connect guard on.
  nock.enableNetConnect('127.0.0.1');
  for (const v of VARS) saved[v] = process.env[v];
  work = tempDir('proofpr-providers-');
});

afterAll(() => {
  for (const v of VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  rmSync(work, { recursive: true, force: true });
});

describe('provider selection', () => {
  it('PROOFPR_PROVIDER wins over the config; an unknown value names the variable and the choices', () => {
    expect(resolveProvider('vertex', {})).toBe('vertex');
    expect(resolveProvider(undefined, {})).toBe('anthropic');
    expect(resolveProvider('anthropic', { PROOFPR_PROVIDER: 'bedrock' })).toBe('bedrock');
    expect(() => resolveProvider(undefined, { PROOFPR_PROVIDER: 'azure' })).toThrow(
      'PROOFPR_PROVIDER=azure is not a provider: set it to anthropic, bedrock, vertex or unset it',
    );
  });

  it('vertex without CLOUD_ML_REGION fails at start naming the variable; bedrock states its default region', () => {
    expect(() => providerSettings('vertex', {})).toThrow(ProviderConfigError);
    expect(() => providerSettings('vertex', {})).toThrow(/CLOUD_ML_REGION/);
    expect(() => createModelClient({ provider: 'vertex', env: {} })).toThrow(/CLOUD_ML_REGION/);
    expect(providerSettings('bedrock', {}).region).toBe('us-east-1');
    expect(providerSettings('bedrock', { AWS_REGION: 'eu-west-3' }).region).toBe('eu-west-3');
    expect(() => createModelClient({ provider: 'anthropic', env: {} })).toThrow(/ANTHROPIC_API_KEY/);
  });

  it.each(['bedrock', 'vertex'] as const)(
    '%s with its SDK not installed fails at start naming the package and the install line',
    (provider) => {
      const env = { AWS_REGION: 'eu-west-1', CLOUD_ML_REGION: 'us-east5' };
      const make = () => createModelClient({ provider, env, cloudSdkInstalled: () => false });
      expect(make).toThrow(ProviderConfigError);
      expect(make).toThrow(
        `provider: ${provider} needs the package @anthropic-ai/${provider}-sdk, which is not installed: npm install @anthropic-ai/${provider}-sdk`,
      );
      expect(cloudSdkInstalled(provider)).toBe(true); // a development install carries both (devDependencies)
    },
  );

  it('the config accepts provider and rejects other values naming the key', () => {
    expect(parseRepoConfig('provider: bedrock\n').provider).toBe('bedrock');
    expect(parseRepoConfig('').provider).toBe('anthropic');
    expect(() => parseRepoConfig('provider: azure\n')).toThrow(/provider/);
  });
});

describe('a scripted fix through a cloud endpoint', () => {
  it('Bedrock: SigV4 from the AWS environment, the binary event stream, verified', async () => {
    const server = await startFakeCloudServer('bedrock', (_b, n) => SCRIPT[n - 1]);
    try {
      setEnv({ AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKE', AWS_SECRET_ACCESS_KEY: 'fake-secret', AWS_REGION: 'eu-central-1' });
      const res = await fixThrough('bedrock', server);
      expect(res.evidence.verdict).toBe('verified');
      expect(server.requests).toHaveLength(4);
      const first = server.requests[0]!;
      expect(first.path).toBe('/model/claude-sonnet-5-5/invoke-with-response-stream');
      expect(first.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEFAKEFAKE\/\d{8}\/eu-central-1\/bedrock\/aws4_request/);
      // The model and the stream flag travel in the path; the API version in the body.
      expect(first.body.model).toBeUndefined();
      expect(first.body.stream).toBeUndefined();
      expect(typeof first.body.anthropic_version).toBe('string');
      expect(JSON.stringify(first.body.system)).toContain('sum([]) returns 1');
      expect(res.evidence.usage.inputTokens).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('Vertex: a federated token from the credential file, streamRawPredict, verified', async () => {
    const server = await startFakeCloudServer('vertex', (_b, n) => SCRIPT[n - 1]);
    try {
      // What google-github-actions/auth writes for workload identity federation: an external account whose
      // subject token (the GitHub OIDC token) is in a file, exchanged at token_url.
      const oidc = join(work, 'oidc-token');
      writeFileSync(oidc, 'header.payload.signature');
      const creds = join(work, 'gcp-credentials.json');
      writeFileSync(
        creds,
        JSON.stringify({
          type: 'external_account',
          audience: '//iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/gh/providers/github',
          subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
          token_url: `${server.url}/sts`,
          credential_source: { file: oidc },
        }),
      );
      // google-github-actions/auth also exports GOOGLE_CLOUD_PROJECT; without it the auth library asks the
      // Resource Manager API for the pool's project.
      setEnv({
        GOOGLE_APPLICATION_CREDENTIALS: creds,
        GOOGLE_CLOUD_PROJECT: 'my-project',
        CLOUD_ML_REGION: 'us-east5',
        ANTHROPIC_VERTEX_PROJECT_ID: 'my-project',
      });
      const res = await fixThrough('vertex', server);
      expect(res.evidence.verdict).toBe('verified');
      expect(server.requests).toHaveLength(4);
      expect(server.tokenExchanges).toBeGreaterThanOrEqual(1);
      const first = server.requests[0]!;
      expect(first.path).toBe('/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-5-5:streamRawPredict');
      expect(first.authorization).toBe(`Bearer ${FAKE_ACCESS_TOKEN}`);
      expect(first.body.model).toBeUndefined();
      expect(typeof first.body.anthropic_version).toBe('string');
      expect(first.body.stream).toBe(true);
    } finally {
      await server.close();
    }
  }, 120_000);
});
