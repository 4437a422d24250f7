import { git } from './git.js';

/**
 * Makes refs/heads/* of a mirror equal refs/remotes/origin/* for every branch outside proofpr/*
 * (proofpr/* are local work branches, never overwritten by a fetch). Branches checked out in a
 * worktree are left alone.
 */
export async function syncHeads(dir: string): Promise<void> {
  const fmt = ['--format=%(objectname) %(refname)'];
  const [remote, local, wt] = await Promise.all([
    git(['for-each-ref', ...fmt, 'refs/remotes/origin/'], { cwd: dir }),
    git(['for-each-ref', ...fmt, 'refs/heads/'], { cwd: dir }),
    git(['worktree', 'list', '--porcelain'], { cwd: dir }),
  ]);
  const busy = new Set([...wt.stdout.matchAll(/^branch (\S+)$/gm)].map((m) => m[1]));
  const parse = (text: string, prefix: string): Map<string, string> => {
    const m = new Map<string, string>();
    for (const line of text.split('\n')) {
      const [sha, ref] = line.split(' ');
      if (!sha || !ref?.startsWith(prefix)) continue;
      const name = ref.slice(prefix.length);
      if (name !== 'HEAD' && !name.startsWith('proofpr/')) m.set(name, sha);
    }
    return m;
  };
  const want = parse(remote.stdout, 'refs/remotes/origin/');
  const have = parse(local.stdout, 'refs/heads/');
  const cmds: string[] = [];
  for (const [name, sha] of want)
    if (have.get(name) !== sha && !busy.has(`refs/heads/${name}`)) cmds.push(`update refs/heads/${name} ${sha}`);
  for (const name of have.keys()) if (!want.has(name) && !busy.has(`refs/heads/${name}`)) cmds.push(`delete refs/heads/${name}`);
  if (cmds.length) await git(['update-ref', '--stdin'], { cwd: dir, input: cmds.join('\n') + '\n' });
}
