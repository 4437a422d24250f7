/**
 * Project context for the first message (seed 000 §4.1): the OS, the branch, `git status` and the recent
 * commits, read once when the run starts. Commit subjects are repository text: fenced as data.
 */
import { execFile } from 'node:child_process';
import { platform, release } from 'node:os';
import { promisify } from 'node:util';
import { escapeTags } from './escape-tags.js';

const run = promisify(execFile);
const MAX_STATUS_LINES = 30;

async function git(root: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', ['-c', 'core.quotepath=off', ...args], { cwd: root, maxBuffer: 1024 * 1024, timeout: 10_000 });
    return stdout.trimEnd();
  } catch {
    return '';
  }
}

export async function projectContext(root: string, commits = 5): Promise<string> {
  const status = (await git(root, ['status', '--short', '--branch'])).split('\n').filter(Boolean);
  const shown = status.slice(0, MAX_STATUS_LINES);
  if (status.length > shown.length) shown.push(`… ${status.length - shown.length} more`);
  const log = await git(root, ['log', `-${commits}`, '--format=%h %ad %s', '--date=short']);
  return [
    '<project-context>',
    `OS: ${platform()} ${release()}`,
    `git status:\n${escapeTags(shown.join('\n') || '(not a git repository)')}`,
    `Recent commits:\n${escapeTags(log || '(none)')}`,
    '</project-context>',
  ].join('\n');
}
