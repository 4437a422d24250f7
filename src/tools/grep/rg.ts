import { run } from '../lib/list-files.js';
import { emptyHits, type GrepBackend, type LineHit } from './types.js';

const strip = (p: string): string => (p.startsWith('./') ? p.slice(2) : p);

/** ripgrep: parallel, .gitignore-aware; hidden files included, .git never searched. */
export const rgBackend: GrepBackend = async (q, root, signal) => {
  const args = ['--no-config', '--hidden', '--no-require-git', '--no-ignore-dot', '--glob', '!.git', '--color', 'never', '--null'];
  if (q.ignoreCase) args.push('-i');
  if (q.glob) args.push('--glob', q.glob);
  if (q.mode === 'files_with_matches') args.push('--files-with-matches');
  else if (q.mode === 'count') args.push('--count', '--with-filename');
  else {
    args.push('--no-heading', '--with-filename', '--line-number');
    if (q.context > 0) args.push('-C', String(q.context));
  }
  args.push('-e', q.pattern, '--', q.target);
  const res = await run('rg', args, root, signal);
  const out = res.stdout.toString('utf8');
  if (res.code === 2 && out === '' && /regex|parse error/i.test(res.stderr)) return { ok: false, error: res.stderr.trim() };
  if (res.code !== 0 && res.code !== 1 && res.code !== 2)
    return { ok: false, error: res.stderr.trim() || `rg exited with ${String(res.code)}` };
  const hits = emptyHits();
  if (q.mode === 'files_with_matches') {
    for (const p of out.split('\0')) if (p !== '') hits.files.set(strip(p), []);
    return hits;
  }
  for (const line of out.split('\n')) {
    const nul = line.indexOf('\0');
    if (nul === -1) continue;
    const path = strip(line.slice(0, nul));
    const rest = line.slice(nul + 1);
    if (q.mode === 'count') {
      hits.counts.set(path, Number(rest));
      continue;
    }
    const m = /^(\d+)([:-])/.exec(rest);
    if (!m) continue;
    let arr = hits.files.get(path);
    if (!arr) hits.files.set(path, (arr = [] as LineHit[]));
    arr.push({ line: Number(m[1]), text: rest.slice(m[0].length).replace(/\r$/, ''), match: m[2] === ':' });
  }
  return hits;
};
