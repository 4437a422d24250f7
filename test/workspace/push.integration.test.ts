import { describe, it, expect, afterEach } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureMirror } from '../../src/workspace/mirror.js';
import { commitWork } from '../../src/workspace/publish.js';
import { pushBranch } from '../../src/workspace/push.js';
import { createWorktree } from '../../src/workspace/worktree.js';
import { bareEnv, captureLogger, makeRemote, sh, tempDir, type Remote } from './git-fixtures.js';
import { BOT as identity } from '../kit/walls-checkout.js';
import { afterThisTest } from '../kit/walls-exec.js';
import { startGitHttpServer, type GitHttpServer } from './http-git-server.js';

let remote: Remote;
let server: GitHttpServer | undefined;
let attempt = 0;
afterEach(async () => {
  await server?.close();
  server = undefined;
  remote?.cleanup();
});

/** A mirror of the remote, a worktree on `branch` with one committed change. */
async function work(branch: string, url?: string, token?: string, logger?: ReturnType<typeof captureLogger>['logger']) {
  const home = tempDir();
  const { dir } = await ensureMirror({ home, url: url ?? remote.url, token, logger });
  const wt = await createWorktree({ repoDir: dir, baseRef: 'main', branch, worktreesDir: join(home, 'wt'), runId: 'r', token, logger });
  afterThisTest(() => wt.remove());
  writeFileSync(join(wt.path, 'work.txt'), `work on ${branch}, attempt ${++attempt}\n`);
  const c = await commitWork({ worktree: wt.path, message: 'work', identity });
  return { dir, wt, sha: (c as { sha: string }).sha };
}

describe('pushBranch', () => {
  it('pushBranch - pushes a proofpr/* branch, and reports pushed=false when the remote already has it', async () => {
    remote = makeRemote();
    const { dir, sha } = await work('proofpr/1-a');
    expect(
      await pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/1-a', ownBranch: true, expectedRemoteSha: null }),
    ).toEqual({ pushed: true, sha });
    expect(remote.sha('proofpr/1-a')).toBe(sha);
    expect(
      await pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/1-a', ownBranch: true, expectedRemoteSha: sha }),
    ).toEqual({ pushed: false, sha });
    expect(sh(dir, 'config', '--list', '--local')).not.toContain('proofpr/1-a');
  });

  it('pushBranch - refuses any branch outside proofpr/*', async () => {
    remote = makeRemote();
    const { dir } = await work('proofpr/2-b');
    for (const branch of ['main', 'feature/proofpr/x', 'proofpr', 'refs/heads/main']) {
      await expect(pushBranch({ repoDir: dir, remoteUrl: remote.url, branch, ownBranch: true })).rejects.toThrow(
        /pushes only its own proofpr\/\* branches/,
      );
    }
    expect(remote.sha('main')).toBe(sh(dir, 'rev-parse', 'refs/remotes/origin/main'));
  });

  it('pushBranch - force-with-lease refuses when the branch moved on the remote, with re-run advice', async () => {
    remote = makeRemote();
    const first = await work('proofpr/3-c');
    await pushBranch({ repoDir: first.dir, remoteUrl: remote.url, branch: 'proofpr/3-c', ownBranch: true, expectedRemoteSha: null });
    const human = remote.commit('proofpr/3-c', { 'human.txt': 'pushed by a person\n' });
    const again = await work('proofpr/3-c');
    await expect(
      pushBranch({ repoDir: again.dir, remoteUrl: remote.url, branch: 'proofpr/3-c', ownBranch: true, expectedRemoteSha: first.sha }),
    ).rejects.toThrow('the branch moved on the remote since proofpr last pushed it; re-run /agent fix to start from the new tip');
    expect(remote.sha('proofpr/3-c')).toBe(human);
  });

  it('pushBranch - a re-run replaces its own branch when the lease holds, but never force-pushes a branch it did not create', async () => {
    remote = makeRemote();
    const first = await work('proofpr/4-d');
    await pushBranch({ repoDir: first.dir, remoteUrl: remote.url, branch: 'proofpr/4-d', ownBranch: true, expectedRemoteSha: null });
    const rerun = await work('proofpr/4-d');
    expect(
      (
        await pushBranch({
          repoDir: rerun.dir,
          remoteUrl: remote.url,
          branch: 'proofpr/4-d',
          ownBranch: true,
          expectedRemoteSha: first.sha,
        })
      ).pushed,
    ).toBe(true);
    expect(remote.sha('proofpr/4-d')).toBe(rerun.sha);
    const other = await work('proofpr/4-d');
    await expect(
      pushBranch({ repoDir: other.dir, remoteUrl: remote.url, branch: 'proofpr/4-d', ownBranch: false, expectedRemoteSha: rerun.sha }),
    ).rejects.toThrow(/proofpr only overwrites branches it created/);
    expect(remote.sha('proofpr/4-d')).toBe(rerun.sha);
  });

  it('token canary - sent as a header over http, never in git config, errors or log lines', async () => {
    remote = makeRemote();
    const token = 'ghs_CANARY0123456789canary';
    const header = `basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    server = await startGitHttpServer(remote.root, header, 'basic ' + Buffer.from('x-access-token:ghs_readonly').toString('base64'));
    const url = server.url('remote.git');
    const cap = captureLogger();
    const { dir, wt } = await work('proofpr/5-e', url, token, cap.logger);
    const pushed = await pushBranch({
      repoDir: dir,
      remoteUrl: url,
      branch: 'proofpr/5-e',
      token,
      ownBranch: true,
      expectedRemoteSha: null,
      logger: cap.logger,
    });
    expect(pushed.pushed).toBe(true);
    expect(remote.sha('proofpr/5-e')).toBe(pushed.sha);
    expect(server.seen).toContain(header);

    const noToken = await pushBranch({
      repoDir: dir,
      remoteUrl: url,
      branch: 'proofpr/5-e',
      ownBranch: true,
      expectedRemoteSha: pushed.sha,
    }).catch((e: Error) => e);
    expect((noToken as Error).message).toMatch(/authentication was refused.*'contents: write'/);
    const readOnly = await pushBranch({
      repoDir: dir,
      remoteUrl: url,
      branch: 'proofpr/5-e',
      token: 'ghs_readonly',
      ownBranch: true,
    }).catch((e: Error) => e);
    expect((readOnly as Error).message).toMatch(/'contents: write'/);
    const badFetch = await ensureMirror({ home: tempDir(), url, token: `${token}x`, logger: cap.logger }).catch((e: Error) => e);
    expect((badFetch as Error).message).toMatch(/'contents: read'/);

    const forms = [token, Buffer.from(`x-access-token:${token}`).toString('base64')];
    const texts = [
      sh(dir, 'config', '--list', '--show-origin'),
      sh(wt.path, 'config', '--list', '--show-origin'),
      spawnSync('grep', ['-rl', 'CANARY', dir, wt.path], { env: bareEnv(), encoding: 'utf8' }).stdout,
      (noToken as Error).message,
      (badFetch as Error).message,
      (badFetch as Error).stack ?? '',
      cap.lines.join(''),
    ].join('\n');
    for (const f of forms) expect(texts).not.toContain(f);
    expect(cap.lines.length).toBeGreaterThan(0);
  });

  it('pushBranch - with sha pushes that commit even when the local branch moved after the commit', async () => {
    remote = makeRemote();
    const { dir, wt, sha } = await work('proofpr/6-s');
    writeFileSync(join(wt.path, 'later.txt'), 'moved after the verified commit\n');
    const later = (await commitWork({ worktree: wt.path, message: 'later', identity })) as { sha: string };
    expect(sh(dir, 'rev-parse', 'refs/heads/proofpr/6-s')).toBe(later.sha);
    const r = await pushBranch({
      repoDir: dir,
      remoteUrl: remote.url,
      branch: 'proofpr/6-s',
      ownBranch: true,
      expectedRemoteSha: null,
      sha,
    });
    expect(r).toEqual({ pushed: true, sha });
    expect(remote.sha('proofpr/6-s')).toBe(sha);
    await expect(pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/6-s', ownBranch: true, sha: 'main' })).rejects.toThrow(
      /sha must be the full commit sha/,
    );
    await expect(
      pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/6-s', ownBranch: true, sha: 'a'.repeat(40) }),
    ).rejects.toThrow(/commit a{40} does not exist/);
  });

  it('pushBranch - with wipRef the commit goes to refs/proofpr/wip/<run-id>, no branch; the ref is never replaced; other refs are refused', async () => {
    remote = makeRemote();
    const { dir, wt, sha } = await work('proofpr/7-w');
    const wipRef = 'refs/proofpr/wip/20261201-230000-0a1b2c3d';
    expect(await pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/7-w', ownBranch: true, sha, wipRef })).toEqual({
      pushed: true,
      sha,
    });
    expect(remote.sha(wipRef)).toBe(sha);
    expect(sh(remote.bare, 'for-each-ref', '--format=%(refname)', 'refs/heads/proofpr/')).toBe('');
    writeFileSync(join(wt.path, 'work.txt'), 'a second try\n');
    const again = (await commitWork({ worktree: wt.path, message: 'again', identity })) as { sha: string };
    await expect(
      pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/7-w', ownBranch: true, sha: again.sha, wipRef }),
    ).rejects.toThrow(/already exists on the remote/);
    expect(remote.sha(wipRef)).toBe(sha);
    for (const bad of ['refs/heads/main', 'refs/proofpr/wip/../heads/main', 'refs/tags/x', 'refs/proofpr/wip/']) {
      await expect(
        pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/7-w', ownBranch: true, sha, wipRef: bad }),
      ).rejects.toThrow(/wipRef must be/);
    }
    await expect(pushBranch({ repoDir: dir, remoteUrl: remote.url, branch: 'proofpr/7-w', ownBranch: true, wipRef })).rejects.toThrow(
      /needs the sha/,
    );
  });
});
