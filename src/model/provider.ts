/**
 * Where model requests go: the Anthropic API, Amazon Bedrock or Google Vertex AI. Bedrock and Vertex use
 * the Anthropic SDK's own clients (@anthropic-ai/bedrock-sdk, @anthropic-ai/vertex-sdk), which take their
 * credentials from their clouds' usual environment: the AWS credential chain (AWS_ACCESS_KEY_ID…, a web
 * identity token from OIDC, a profile) with AWS_REGION, and Google application default credentials
 * (GOOGLE_APPLICATION_CREDENTIALS, a workload identity federation file from OIDC, the metadata server)
 * with CLOUD_ML_REGION and ANTHROPIC_VERTEX_PROJECT_ID. Those SDKs are loaded only when chosen.
 */
import { createRequire } from 'node:module';
import type Anthropic from '@anthropic-ai/sdk';

export const PROVIDERS = ['anthropic', 'bedrock', 'vertex'] as const;
export type ModelProvider = (typeof PROVIDERS)[number];

/** The part of the SDK client the adapter uses; the three clients share it (Bedrock lacks count_tokens and batches). */
export interface SdkMessages {
  messages: Pick<Anthropic['messages'], 'create'>;
}

export class ProviderConfigError extends Error {
  override name = 'ProviderConfigError';
}

/**
 * PROOFPR_PROVIDER wins over the config's `provider:` (the machine's credentials decide where they can go);
 * an unknown value names the variable and the accepted ones.
 */
export function resolveProvider(configured: ModelProvider | undefined, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const fromEnv = env.PROOFPR_PROVIDER?.trim();
  if (fromEnv) {
    if (!(PROVIDERS as readonly string[]).includes(fromEnv)) {
      throw new ProviderConfigError(`PROOFPR_PROVIDER=${fromEnv} is not a provider: set it to ${PROVIDERS.join(', ')} or unset it`);
    }
    return fromEnv as ModelProvider;
  }
  return configured ?? 'anthropic';
}

export interface ProviderSettings {
  provider: ModelProvider;
  /** Region the requests go to (AWS_REGION / CLOUD_ML_REGION); undefined for anthropic. */
  region?: string;
  /** Vertex project (ANTHROPIC_VERTEX_PROJECT_ID; else the one the Google credentials name). */
  projectId?: string;
  /** Endpoint override: the SDK's own variable (ANTHROPIC_BASE_URL, ANTHROPIC_BEDROCK_BASE_URL, ANTHROPIC_VERTEX_BASE_URL). */
  baseURL?: string;
}

const BASE_URL_VAR: Record<ModelProvider, string> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  bedrock: 'ANTHROPIC_BEDROCK_BASE_URL',
  vertex: 'ANTHROPIC_VERTEX_BASE_URL',
};

export function baseUrlVariable(provider: ModelProvider): string {
  return BASE_URL_VAR[provider];
}

/**
 * What the chosen provider needs from the environment, checked before any request: Vertex has no default
 * region (the SDK would throw later with a less useful message); Bedrock's SDK defaults to us-east-1,
 * which is kept but stated.
 */
export function providerSettings(provider: ModelProvider, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const baseURL = env[BASE_URL_VAR[provider]]?.trim() || undefined;
  if (provider === 'anthropic') return { provider, ...(baseURL ? { baseURL } : {}) };
  if (provider === 'bedrock') {
    return { provider, region: env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1', ...(baseURL ? { baseURL } : {}) };
  }
  const region = env.CLOUD_ML_REGION?.trim();
  if (!region) {
    throw new ProviderConfigError(
      'provider vertex needs a region: set CLOUD_ML_REGION (e.g. us-east5, europe-west1 or global) where the Claude model is enabled',
    );
  }
  const projectId = env.ANTHROPIC_VERTEX_PROJECT_ID?.trim() || undefined;
  return { provider, region, ...(projectId ? { projectId } : {}), ...(baseURL ? { baseURL } : {}) };
}

export interface CloudClientOptions {
  maxRetries: number;
  timeout: number;
  logger: NonNullable<ConstructorParameters<typeof Anthropic>[0]>['logger'];
}

/** The cloud SDK of each provider: optional peer dependencies, installed only by those who use them. */
export const CLOUD_SDK = { bedrock: '@anthropic-ai/bedrock-sdk', vertex: '@anthropic-ai/vertex-sdk' } as const;

/** How to add a provider's SDK next to proofpr (the Action's bundle and the container image carry both). */
export function cloudSdkFix(provider: keyof typeof CLOUD_SDK): string {
  return `npm install ${CLOUD_SDK[provider]} next to proofpr (in the project that depends on it, or with -g beside a global proofpr)`;
}

/** Is the provider's SDK installed where proofpr can import it? Resolved, not loaded (the libraries are large). */
export function cloudSdkInstalled(provider: keyof typeof CLOUD_SDK): boolean {
  try {
    createRequire(import.meta.url).resolve(CLOUD_SDK[provider]);
    return true;
  } catch {
    return false;
  }
}

/** The error for a provider whose SDK is missing: the package and the install line. */
export function missingSdkError(provider: keyof typeof CLOUD_SDK): ProviderConfigError {
  return new ProviderConfigError(
    `provider: ${provider} needs the package ${CLOUD_SDK[provider]}, which is not installed: ${cloudSdkFix(provider)}`,
  );
}

/** The SDK module, or a ProviderConfigError naming the package and the install line when it is not installed. */
async function loadCloudSdk<T>(provider: keyof typeof CLOUD_SDK, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw e;
    throw missingSdkError(provider);
  }
}

/** The Bedrock or Vertex SDK client, loaded on first use (the AWS and Google libraries are large). */
export async function createCloudSdk(settings: ProviderSettings, common: CloudClientOptions): Promise<SdkMessages> {
  const base = settings.baseURL ? { baseURL: settings.baseURL } : {};
  if (settings.provider === 'bedrock') {
    const { AnthropicBedrock } = await loadCloudSdk('bedrock', () => import('@anthropic-ai/bedrock-sdk'));
    // No apiKey: AWS_BEARER_TOKEN_BEDROCK (read by the SDK) or SigV4 from the AWS credential chain.
    return new AnthropicBedrock({ ...common, ...base, ...(settings.region ? { awsRegion: settings.region } : {}) });
  }
  if (settings.provider === 'vertex') {
    const { AnthropicVertex } = await loadCloudSdk('vertex', () => import('@anthropic-ai/vertex-sdk'));
    return new AnthropicVertex({
      ...common,
      ...base,
      region: settings.region ?? null,
      projectId: settings.projectId ?? null,
    });
  }
  throw new Error(`createCloudSdk: ${settings.provider} is not a cloud provider`);
}
