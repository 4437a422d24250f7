import { run } from '../lib/list-files.js';
import { jsBackend } from './js-grep.js';
import { emptyHits, type GrepBackend, type LineHit } from './types.js';

let pcre: boolean | undefined;

async function hasPcre(root: string): Promise<boolean> {
  if (pcre === undefined) {
    const res = await run('git', ['grep', '--no-index', '-P', '-q', '-e', 'x', '--', '.git-probe-none'], root);
    pcre = !/Perl-compatible|USE_LIBPCRE|PCRE/i.test(res.stderr);
  }
  return pcre;
}

/** git grep over tracked and untracked-not-ignored files; PCRE when git has it, else ERE. */
export const gitBackend: GrepBackend = async (q, root, signal) => {
  const args = ['-c', 'core.quotepath=false', 'grep', '--no-color', '-I', '--untracked', (await hasPcre(root)) ? '-P' : '-E'];
  if (q.ignoreCase) args.push('-i');
  if (q.mode === 'files_with_matches') args.push('-l', '-z');
  else if (q.mode === 'count') args.push('-c', '-z');
  else {
    args.push('-n', '--heading');
    if (q.context > 0) args.push('-C', String(q.context));
  }
  args.push('-e', q.pattern, '--', q.target);
  const res = await run('git', args, root, signal);
  if (res.code !== 0 && res.code !== 1 && /not a git repository/i.test(res.stderr)) return jsBackend(q, root, signal);
  if (res.code !== 0 && res.code !== 1)
    return { ok: false, error: res.stderr.trim().replace(/^fatal:\s*/, '') || `git grep exited with ${res.code}` };
  const out = res.stdout.toString('utf8');
  const hits = emptyHits();
  if (q.mode === 'files_with_matches') {
    for (const p of out.split('\0')) if (p !== '') hits.files.set(p, []);
    return hits;
  }
  if (q.mode === 'count') {
    for (const line of out.split('\n')) {
      const nul = line.indexOf('\0');
      if (nul !== -1) hits.counts.set(line.slice(0, nul), Number(line.slice(nul + 1)));
    }
    return hits;
  }
  // --heading: a file name line, then "N:text" (match) / "N-text" (context) lines, "--" between groups.
  let current: LineHit[] | undefined;
  let last = 0;
  for (const line of out.split('\n')) {
    if (line === '--' || line === '') continue;
    const m = /^(\d+)([:-])/.exec(line);
    if (m && current && Number(m[1]) > last) {
      last = Number(m[1]);
      current.push({ line: last, text: line.slice(m[0].length).replace(/\r$/, ''), match: m[2] === ':' });
    } else {
      hits.files.set(line, (current = []));
      last = 0;
    }
  }
  return hits;
};
