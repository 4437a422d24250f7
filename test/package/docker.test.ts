/**
 * Self-hosting files: the Dockerfile (node, git, ripgrep, bubblewrap; non-root; PROOFPR_HOME volume;
 * HEALTHCHECK; SIGTERM with a drain shorter than the stop grace) and compose.yaml (Redis and two workers
 * with the security options bwrap needs). Building the image measures rather than guards a unit of
 * code, so it is its own command (`npm run docker:check`, docs/releasing.md) and its own CI job.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

const dockerfile = readFileSync('Dockerfile', 'utf8');
/** Instructions of the final stage, continuation lines joined. */
const finalStage =
  dockerfile
    .replace(/\\\n/g, ' ')
    .split(/^FROM /m)
    .at(-1) ?? '';
const instr = (name: string): string[] =>
  finalStage
    .split('\n')
    .filter((l) => l.startsWith(`${name} `))
    .map((l) => l.slice(name.length + 1).trim());

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  security_opt?: string[];
  stop_grace_period?: string;
}
const compose = parseYaml(readFileSync('compose.yaml', 'utf8')) as { services: Record<string, ComposeService> };
const seconds = (d: string | undefined): number => Number(/^(\d+)s$/.exec(d ?? '')?.[1] ?? NaN);

describe('Dockerfile and compose.yaml', () => {
  it('docker - the image has node, git, ripgrep, bubblewrap and tini, runs as a non-root user with PROOFPR_HOME on a volume', () => {
    expect(finalStage).toMatch(/^node:\d+-/);
    const apt = instr('RUN').find((r) => r.includes('apt-get install')) ?? '';
    for (const p of ['git', 'ripgrep', 'bubblewrap', 'tini']) expect(apt.split(/\s+/)).toContain(p);
    expect(instr('USER')).toEqual(['proofpr']);
    expect(instr('ENV').join(' ')).toContain('PROOFPR_HOME=/data');
    expect(instr('VOLUME')).toEqual(['["/data"]']);
    expect(instr('ENTRYPOINT')).toEqual(['["tini", "--", "proofpr"]']);
  });

  it('docker - HEALTHCHECK asks /healthz; SIGTERM stops it, and the drain is shorter than the compose stop grace', () => {
    expect(instr('HEALTHCHECK')[0]).toContain('/healthz');
    expect(instr('STOPSIGNAL')).toEqual(['SIGTERM']);
    const drainMs = Number(/PROOFPR_DRAIN_GRACE_MS=(\d+)/.exec(instr('ENV').join(' '))?.[1]);
    for (const name of ['serve', 'worker']) {
      const s = compose.services[name]!;
      expect(seconds(s.stop_grace_period) * 1000).toBeGreaterThan(Number(s.environment?.PROOFPR_DRAIN_GRACE_MS ?? drainMs));
    }
  });

  it('compose - Redis, one webhook server and two workers with the security options bubblewrap needs', () => {
    const { redis, serve, worker } = compose.services;
    expect(redis?.image).toMatch(/^redis:/);
    expect(serve?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(worker?.command).toEqual(['worker']);
    expect(worker?.deploy?.replicas).toBe(2);
    expect(worker?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(worker?.security_opt).toEqual(expect.arrayContaining(['seccomp=unconfined', 'apparmor=unconfined']));
  });
});
