/**
 * Repository instructions: AGENTS.md and CLAUDE.md from the worktree root down to each folder the task
 * touches, concatenated (not overridden), root first, then deeper folders in sorted order; within a
 * folder AGENTS.md before CLAUDE.md. Each is read as Claude Code reads it (instruction-text.ts): HTML
 * comments stripped, `@path` imports expanded inside the repository. The total is capped; a cut file says so.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { InstructionFile } from './types.js';
import { expandImports, stripHtmlComments, type ImportState } from './instruction-text.js';

export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;
export const DEFAULT_INSTRUCTIONS_MAX_BYTES = 24_000;

export interface LoadInstructionsOptions {
  /** Total bytes of instruction text in the prompt (default 24 000). */
  maxBytes?: number;
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Folder chain (relative, '' = root) from the root down to `dir`; undefined when `dir` leaves the root. */
function chain(root: string, dir: string): string[] | undefined {
  const abs = isAbsolute(dir) ? dir : join(root, dir);
  if (!inside(root, abs)) return undefined;
  const rel = relative(root, abs);
  const parts = rel === '' ? [] : rel.split(sep).filter((p) => p !== '' && p !== '.');
  const out = [''];
  for (let i = 1; i <= parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

function byDepthThenName(a: string, b: string): number {
  const da = a === '' ? 0 : a.split('/').length;
  const db = b === '' ? 0 : b.split('/').length;
  if (da !== db) return da - db;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Cut to at most `bytes` UTF-8 bytes, at a line break when one is near. */
function cutBytes(text: string, bytes: number): string {
  let cut = Buffer.from(text, 'utf8')
    .subarray(0, Math.max(0, bytes))
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const nl = cut.lastIndexOf('\n');
  if (nl > cut.length * 0.8) cut = cut.slice(0, nl + 1);
  return cut;
}

/** One instruction file's text as the model gets it: comments stripped, imports expanded (noted when refused). */
async function readInstruction(root: string, abs: string): Promise<string | undefined> {
  const raw = await readInside(root, abs);
  if (raw === undefined) return undefined;
  const state: ImportState = { root, count: 0, notes: [] };
  const text = await expandImports(stripHtmlComments(raw), dirname(abs), state, [abs]);
  return state.notes.length ? `${text.trimEnd()}\n\n[${state.notes.join('; ')}]\n` : text;
}

/** A repository file (relative path) read as an instruction file; undefined when it is missing or leaves the root. */
export async function readInstructionText(root: string, path: string): Promise<string | undefined> {
  const realRoot = await realpath(root);
  return readInstruction(realRoot, join(realRoot, ...path.split('/')));
}

async function readInside(root: string, abs: string): Promise<string | undefined> {
  try {
    const real = await realpath(abs);
    if (!inside(root, real)) return undefined;
    if (!(await stat(real)).isFile()) return undefined;
    return await readFile(real, 'utf8');
  } catch {
    return undefined;
  }
}

/** The instruction files of one folder (relative, '' = root), each cut to `maxBytes`; none when it has none. */
export async function loadFolderInstructions(root: string, dir: string, maxBytes: number): Promise<InstructionFile[]> {
  const realRoot = await realpath(root);
  const files: InstructionFile[] = [];
  for (const name of INSTRUCTION_FILE_NAMES) {
    const path = dir === '' ? name : `${dir}/${name}`;
    const text = await readInstruction(realRoot, join(realRoot, ...path.split('/')));
    if (text === undefined || text.trim() === '') continue;
    const bytes = Buffer.byteLength(text, 'utf8');
    files.push({ path, content: bytes <= maxBytes ? text : cutBytes(text, maxBytes), bytes, truncated: bytes > maxBytes });
  }
  return files;
}

/** Folder chain below the root (relative, forward slashes) of a file path, '' excluded; [] when it leaves the root. */
export function foldersOf(root: string, filePath: string): string[] {
  const abs = isAbsolute(filePath) ? filePath : join(root, filePath);
  return (chain(root, dirname(abs)) ?? []).filter((d) => d !== '');
}

export async function loadInstructions(
  root: string,
  touchedDirs: string[],
  opts: LoadInstructionsOptions = {},
): Promise<InstructionFile[]> {
  const maxBytes = opts.maxBytes ?? DEFAULT_INSTRUCTIONS_MAX_BYTES;
  const realRoot = await realpath(root);
  const dirs = new Set<string>(['']);
  for (const d of touchedDirs) for (const c of chain(realRoot, d) ?? []) dirs.add(c);
  const files: InstructionFile[] = [];
  let used = 0;
  for (const dir of [...dirs].sort(byDepthThenName)) {
    for (const name of INSTRUCTION_FILE_NAMES) {
      const path = dir === '' ? name : `${dir}/${name}`;
      const text = await readInstruction(realRoot, join(realRoot, ...path.split('/')));
      if (text === undefined || text.trim() === '') continue;
      const bytes = Buffer.byteLength(text, 'utf8');
      const room = maxBytes - used;
      if (room <= 0) {
        files.push({ path, content: '', bytes, truncated: true });
        continue;
      }
      const content = bytes <= room ? text : cutBytes(text, room);
      used += Buffer.byteLength(content, 'utf8');
      files.push({ path, content, bytes, truncated: bytes > room });
    }
  }
  return files;
}
