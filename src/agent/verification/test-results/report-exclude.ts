import { git } from '../../../workspace/git.js';

/**
 * What the tree hash leaves out for `test.report`: the report when git would stage it, nothing when it
 * is ignored already (git refuses an exclude pathspec that names an ignored path) or not configured.
 */
export async function reportExclude(root: string, report: string | undefined, gitDir?: string): Promise<string[]> {
  if (report === undefined) return [];
  const r = await git(['check-ignore', '-q', '--', report], {
    cwd: root,
    okCodes: [0, 1, 128],
    ...(gitDir ? { env: { GIT_DIR: gitDir, GIT_WORK_TREE: root } } : {}),
  }).catch(() => undefined);
  return r?.code === 0 ? [] : [report];
}
