/** The paths one commit range changes (`git diff --name-only from to`, renames as delete + add), from git itself. */
import { git } from './git.js';

export async function changedPaths(o: { repoDir: string; from: string; to: string }): Promise<string[]> {
  const { stdout } = await git(['diff', '--name-only', '--no-renames', '--no-ext-diff', '--no-textconv', '-z', o.from, o.to, '--'], {
    cwd: o.repoDir,
  });
  return stdout.split('\0').filter((p) => p !== '');
}
