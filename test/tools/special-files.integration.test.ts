import { describe, it, expect, afterEach } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { useRepo, call } from './helpers/context.js';
import { createRegistry } from '../../src/tools/registry.js';
import { createGrepTool } from '../../src/tools/grep.js';
import type { ToolResult } from '../../src/tools/define-tool.js';

const repo = useRepo({ git: true, files: { 'a.txt': 'hello\n' } });
let unblockers: ChildProcess[] = [];
let server: Server | undefined;

/**
 * A named pipe in the worktree, and a child that opens it for writing after 3 s: should a tool ever
 * open the pipe again, the test fails on its timing instead of hanging the test process forever.
 */
function fifo(rel: string): string {
  const abs = join(repo.root, rel);
  execFileSync('mkfifo', [abs]);
  const unblocker = spawn('sh', ['-c', `sleep 3; printf 'x\\n' > '${abs}'`], { stdio: 'ignore', detached: true });
  unblockers.push(unblocker);
  return abs;
}

afterEach(async () => {
  for (const u of unblockers) {
    try {
      if (u.pid) process.kill(-u.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  unblockers = [];
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function timed(p: Promise<ToolResult>): Promise<{ r: ToolResult; ms: number }> {
  const t = Date.now();
  const r = await p;
  return { r, ms: Date.now() - t };
}

describe('file tools and special files', () => {
  it('special - a Read of a named pipe is refused within a second, saying what it is', async () => {
    fifo('pipe');
    const { r, ms } = await timed(call(repo.ctx, 'Read', { file_path: 'pipe' }));
    expect(ms).toBeLessThan(1000);
    expect(r).toMatchObject({ isError: true, errorKind: 'special_file' });
    expect(r.forModel).toContain('pipe is a named pipe (FIFO), not a regular file');
  });

  it('special - a Read through a symlink to a pipe is refused the same way', async () => {
    fifo('pipe');
    execFileSync('ln', ['-s', 'pipe', join(repo.root, 'link')]);
    const { r, ms } = await timed(call(repo.ctx, 'Read', { file_path: 'link' }));
    expect(ms).toBeLessThan(1000);
    expect(r).toMatchObject({ isError: true, errorKind: 'special_file' });
  });

  it.each(['rg', 'git', 'js'] as const)('special - Grep (%s) named a pipe refuses within a second', async (backend) => {
    fifo('pipe');
    const reg = createRegistry([createGrepTool({ backend })]);
    const parsed = reg.parse('Grep', { pattern: 'x', path: 'pipe', output_mode: 'content' });
    if (!parsed.ok) throw new Error('parse');
    const { r, ms } = await timed(reg.execute('Grep', parsed.input, repo.ctx));
    expect(ms).toBeLessThan(1000);
    expect(r).toMatchObject({ isError: true, errorKind: 'special_file' });
    expect(r.forModel).toContain('named pipe');
  });

  it.each(['rg', 'git', 'js'] as const)('special - Grep (%s) over a folder with a pipe skips it and finds the rest', async (backend) => {
    fifo('pipe');
    fifo('pipe2.txt');
    const reg = createRegistry([createGrepTool({ backend })]);
    const parsed = reg.parse('Grep', { pattern: 'hello' });
    if (!parsed.ok) throw new Error('parse');
    const { r, ms } = await timed(reg.execute('Grep', parsed.input, repo.ctx));
    expect(ms).toBeLessThan(1000);
    expect(r.isError).toBe(false);
    expect(r.forModel).toContain('a.txt');
    expect(r.forModel).not.toContain('pipe');
  });

  it('special - Glob never lists a pipe or a socket', async () => {
    fifo('p.txt');
    server = createServer();
    await new Promise<void>((r) => server?.listen(join(repo.root, 's.txt'), () => r()));
    const { r, ms } = await timed(call(repo.ctx, 'Glob', { pattern: '*.txt' }));
    expect(ms).toBeLessThan(1000);
    expect(r.forModel).toBe('a.txt');
  });

  it('special - Read of a socket and of a character device is refused', async () => {
    server = createServer();
    await new Promise<void>((r) => server?.listen(join(repo.root, 'sock'), () => r()));
    const s = await call(repo.ctx, 'Read', { file_path: 'sock' });
    expect(s).toMatchObject({ isError: true, errorKind: 'special_file' });
    expect(s.forModel).toContain('a socket');
    // /dev/null lies outside the root: offer it as an extra read root to reach the device check.
    const d = await call({ ...repo.ctx, extraReadRoots: ['/dev'] }, 'Read', { file_path: '/dev/null' });
    expect(d).toMatchObject({ isError: true, errorKind: 'special_file' });
    expect(d.forModel).toContain('a character device');
  });

  it('special - Write and Edit refuse a pipe (Write would read it to keep its line endings)', async () => {
    fifo('pipe');
    const w = await timed(call(repo.ctx, 'Write', { file_path: 'pipe', content: 'x' }));
    expect(w.ms).toBeLessThan(1000);
    expect(w.r).toMatchObject({ isError: true, errorKind: 'special_file' });
    const e = await timed(call(repo.ctx, 'Edit', { file_path: 'pipe', old_string: 'a', new_string: 'b' }));
    expect(e.ms).toBeLessThan(1000);
    expect(e.r).toMatchObject({ isError: true, errorKind: 'special_file' });
  });
});
