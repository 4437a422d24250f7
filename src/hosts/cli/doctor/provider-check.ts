/**
 * The model provider when it is Bedrock or Vertex (PROOFPR_PROVIDER or `provider:` in the config): the region
 * and project its SDK needs, and where its credentials will come from. No request is made (a Bedrock or
 * Vertex call is billed); the credential chain's own lookups (instance metadata, the GCE metadata server)
 * are not probed, so finding nothing in the environment is a warning, not a failure.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  cloudSdkFix,
  cloudSdkInstalled,
  CLOUD_SDK,
  ProviderConfigError,
  providerSettings,
  type ModelProvider,
} from '../../../model/provider.js';
import type { CheckResult } from './check.js';

const NAME = 'model provider';

function bedrockCredentials(env: NodeJS.ProcessEnv, home: string): string | undefined {
  if (env.AWS_BEARER_TOKEN_BEDROCK) return 'a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK)';
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY)
    return `access keys in the environment${env.AWS_SESSION_TOKEN ? ' with a session token (e.g. aws-actions/configure-aws-credentials through OIDC)' : ''}`;
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE && env.AWS_ROLE_ARN) return `a web identity token for ${env.AWS_ROLE_ARN}`;
  if (env.AWS_CONTAINER_CREDENTIALS_FULL_URI || env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) return 'the container credentials endpoint';
  if (env.AWS_PROFILE) return `profile ${env.AWS_PROFILE}`;
  if (existsSync(join(home, '.aws', 'credentials')) || existsSync(join(home, '.aws', 'config'))) return '~/.aws (default profile)';
  return undefined;
}

function vertexCredentials(env: NodeJS.ProcessEnv, home: string): { found?: string; broken?: string } {
  const file = env.GOOGLE_APPLICATION_CREDENTIALS;
  if (file) return existsSync(file) ? { found: `GOOGLE_APPLICATION_CREDENTIALS (${file})` } : { broken: file };
  const adc = join(env.CLOUDSDK_CONFIG ?? join(home, '.config', 'gcloud'), 'application_default_credentials.json');
  return existsSync(adc) ? { found: 'gcloud application default credentials' } : {};
}

export function checkProvider(
  provider: ModelProvider,
  from: string,
  env: NodeJS.ProcessEnv = process.env,
  installed: (p: 'bedrock' | 'vertex') => boolean = cloudSdkInstalled,
): CheckResult {
  const home = env.HOME ?? homedir();
  if ((provider === 'bedrock' || provider === 'vertex') && !installed(provider))
    return {
      name: NAME,
      status: 'fail',
      detail: `${provider} (${from}): its SDK ${CLOUD_SDK[provider]} is not installed (an optional dependency, left out of a plain install)`,
      fix: cloudSdkFix(provider),
    };
  let settings;
  try {
    settings = providerSettings(provider, env);
  } catch (e) {
    if (!(e instanceof ProviderConfigError)) throw e;
    return { name: NAME, status: 'fail', detail: `${provider} (${from}): ${e.message}`, fix: e.message.replace(/^.*?: /, '') };
  }
  const where = `${provider} (${from}) in ${settings.region}${settings.baseURL ? ` at ${settings.baseURL}` : ''}`;
  if (provider === 'bedrock') {
    const creds = bedrockCredentials(env, home);
    const region = env.AWS_REGION || env.AWS_DEFAULT_REGION ? '' : ' (AWS_REGION unset: the SDK default)';
    if (creds) return { name: NAME, status: 'ok', detail: `${where}${region}; credentials: ${creds}` };
    return {
      name: NAME,
      status: 'warn',
      detail: `${where}${region}; no AWS credentials in the environment or ~/.aws (instance or task roles are not probed)`,
      fix: 'set AWS credentials (in GitHub Actions: aws-actions/configure-aws-credentials with role-to-assume and id-token: write), or AWS_BEARER_TOKEN_BEDROCK',
    };
  }
  const creds = vertexCredentials(env, home);
  const project = settings.projectId ?? env.GOOGLE_CLOUD_PROJECT ?? env.GCLOUD_PROJECT;
  if (creds.broken)
    return {
      name: NAME,
      status: 'fail',
      detail: `${where}: GOOGLE_APPLICATION_CREDENTIALS names ${creds.broken}, which does not exist`,
      fix: 'point GOOGLE_APPLICATION_CREDENTIALS at the credential file (google-github-actions/auth writes one) or unset it',
    };
  const projectNote = project ? `project ${project}` : 'no project set (ANTHROPIC_VERTEX_PROJECT_ID): the credentials must name one';
  if (creds.found) return { name: NAME, status: project ? 'ok' : 'warn', detail: `${where}, ${projectNote}; credentials: ${creds.found}` };
  return {
    name: NAME,
    status: 'warn',
    detail: `${where}, ${projectNote}; no Google credentials file (the metadata server is not probed)`,
    fix: 'run gcloud auth application-default login, or in GitHub Actions google-github-actions/auth with workload_identity_provider and id-token: write',
  };
}
