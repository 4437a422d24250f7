import { spawn } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Run a program (no shell), collect stdout as a Buffer; resolves with the exit code. */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  signal?: AbortSignal,
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => resolve({ code: null, stdout: Buffer.concat(out), stderr: e.message }));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** Files under `sub` (relative to root; '.' for all) that git tracks or would track: tracked + untracked, minus ignored. */
export async function gitListFiles(root: string, sub: string, signal?: AbortSignal): Promise<string[] | undefined> {
  const args = ['-c', 'core.quotepath=false', 'ls-files', '-co', '--exclude-standard', '-z'];
  if (sub !== '.') args.push('--', sub);
  const res = await run('git', args, root, signal);
  if (res.code !== 0) return undefined;
  const text = res.stdout.toString('utf8');
  const files = text.split('\0');
  files.pop();
  return [...new Set(files)];
}

interface Rules {
  base: string;
  ig: Ignore;
}

async function loadRules(dir: string, root: string): Promise<Rules | undefined> {
  try {
    const text = await readFile(join(dir, '.gitignore'), 'utf8');
    return { base: relative(root, dir), ig: ignore().add(text) };
  } catch {
    return undefined;
  }
}

function ignored(rel: string, isDir: boolean, rules: Rules[]): boolean {
  for (const r of rules) {
    const p = r.base === '' ? rel : rel.slice(r.base.length + 1);
    if (r.ig.ignores(isDir ? `${p}/` : p)) return true;
  }
  return false;
}

/**
 * Walk `sub` (relative to root) in JS, honouring every .gitignore from root down, never entering .git and
 * never following symlinked folders. Used where git is unavailable; paths relative to root, '/'-separated.
 */
export async function walkFiles(root: string, sub: string): Promise<string[]> {
  const out: string[] = [];
  const rootRules = await loadRules(root, root);
  const start: Rules[] = rootRules ? [rootRules] : [];
  // rules of folders between root and sub
  if (sub !== '.') {
    let cur = '';
    for (const part of sub.split('/').slice(0, -1)) {
      cur = cur ? `${cur}/${part}` : part;
      const r = await loadRules(join(root, cur), root);
      if (r) start.push(r);
    }
  }
  async function visit(rel: string, rules: Rules[]): Promise<void> {
    const abs = rel === '' ? root : join(root, rel);
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    const own = rel === '' ? undefined : await loadRules(abs, root);
    const active = own ? [...rules, own] : rules;
    const subdirs: Promise<void>[] = [];
    for (const e of entries) {
      if (e.name === '.git') continue;
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      const isDir = e.isDirectory();
      if (active.length > 0 && ignored(childRel, isDir, active)) continue;
      if (isDir) subdirs.push(visit(childRel, active));
      else if (e.isFile() || e.isSymbolicLink()) out.push(childRel);
    }
    await Promise.all(subdirs);
  }
  await visit(sub === '.' ? '' : sub, start);
  return out;
}

/** git ls-files when root is a git repository and git is on PATH, else the JS walk. */
export async function listFiles(root: string, sub: string, signal?: AbortSignal): Promise<string[]> {
  return (await gitListFiles(root, sub, signal)) ?? walkFiles(root, sub);
}
