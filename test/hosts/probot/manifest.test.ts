/**
 * app.yml through Probot's own manifest creation (the code behind "Register GitHub App"): the webhook
 * URL is the flow's (WEBHOOK_PROXY_URL, else the server's URL), never a placeholder from app.yml; the
 * events are the ones the code handles plus the CI events; the homepage is the project's.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { WATCHED_EVENTS } from '../../../src/hosts/probot/app.js';

interface ManifestCreationLike {
  getManifest(opts: { pkg: Record<string, unknown>; baseUrl: string }): string;
}

async function manifestCreation(): Promise<ManifestCreationLike> {
  const require = createRequire(join(process.cwd(), 'package.json'));
  const lib = dirname(require.resolve('probot'));
  const mod = (await import(pathToFileURL(join(lib, 'manifest-creation.js')).href)) as { ManifestCreation: new () => ManifestCreationLike };
  return new mod.ManifestCreation();
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
const saved = process.env.WEBHOOK_PROXY_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.WEBHOOK_PROXY_URL;
  else process.env.WEBHOOK_PROXY_URL = saved;
});

describe('app.yml through Probot manifest creation', () => {
  it('manifest - keeps the flow webhook URL: the proxy URL when set, else the server URL', async () => {
    const mc = await manifestCreation();
    process.env.WEBHOOK_PROXY_URL = 'https://smee.io/abc123';
    expect(
      (JSON.parse(mc.getManifest({ pkg, baseUrl: 'http://localhost:3000' })) as { hook_attributes: { url: string } }).hook_attributes.url,
    ).toBe('https://smee.io/abc123');
    delete process.env.WEBHOOK_PROXY_URL;
    const m = JSON.parse(mc.getManifest({ pkg, baseUrl: 'https://proofpr.example.org' })) as Record<string, unknown>;
    expect(m.hook_attributes).toEqual({ url: 'https://proofpr.example.org/' });
    expect(m.redirect_url).toBe('https://proofpr.example.org/probot/setup');
  });

  it('manifest - the homepage is the project, the events are the handled ones plus the CI events and push (config changes)', async () => {
    const m = JSON.parse((await manifestCreation()).getManifest({ pkg, baseUrl: 'http://localhost:3000' })) as {
      url: string;
      default_events: string[];
      default_permissions: Record<string, string>;
      public: boolean;
    };
    expect(m.url).toBe('https://github.com/proofpr/proofpr');
    const handled = [...new Set(WATCHED_EVENTS.map((e) => e.split('.')[0]!))];
    expect([...m.default_events].sort()).toEqual([...new Set([...handled, 'check_run', 'check_suite', 'status', 'push'])].sort());
    expect(m.default_permissions).toMatchObject({
      contents: 'write',
      issues: 'write',
      pull_requests: 'write',
      checks: 'write',
      statuses: 'read',
      metadata: 'read',
    });
    expect(m.public).toBe(false);
    const raw = parseYaml(readFileSync('app.yml', 'utf8')) as Record<string, unknown>;
    expect(raw.hook_attributes).toBeUndefined();
  });
});
