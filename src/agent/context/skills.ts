/**
 * Skills index: `.proofpr/skills/<name>/SKILL.md`, YAML front matter with `name` and `description`.
 * Only the index goes in the prompt; the Skill tool (src/tools/skill.ts) loads a body on demand.
 */
import { readdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Logger } from 'pino';
import { silentLogger } from '../../log.js';
import type { SkillInfo } from './types.js';

export const SKILLS_DIR = '.proofpr/skills';
const MAX_SKILLS = 50;
const MAX_DESCRIPTION = 400;

const frontMatterSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, dashes and underscores (max 64)'),
  description: z
    .string()
    .min(1)
    .max(MAX_DESCRIPTION * 4),
});

/** `key: value` lines, for front matter that is not strict YAML (e.g. an unquoted colon in a description). */
function looseFields(yaml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of yaml.split(/\r?\n/)) {
    const m = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (m?.[1]) out[m[1]] = (m[2] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}

/** Splits `---\n<yaml>\n---\n<body>`; undefined when there is no front matter. */
export function splitFrontMatter(text: string): { meta: unknown; body: string } | undefined {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return undefined;
  const yaml = m[1] ?? '';
  let meta: unknown;
  try {
    meta = parseYaml(yaml);
  } catch {
    meta = looseFields(yaml);
  }
  return { meta, body: text.slice(m[0].length) };
}

export interface LoadedSkill extends SkillInfo {
  body: string;
}

/** Every valid skill with its body, sorted by name (invalid ones are logged and skipped). */
export async function loadSkillBodies(root: string, logger: Logger = silentLogger): Promise<LoadedSkill[]> {
  const realRoot = await realpath(root);
  const dir = join(realRoot, ...SKILLS_DIR.split('/'));
  let entries: string[];
  try {
    entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
  const out = new Map<string, LoadedSkill>();
  for (const entry of entries.sort()) {
    const rel = `${SKILLS_DIR}/${entry}/SKILL.md`;
    let text: string;
    try {
      const real = await realpath(join(dir, entry, 'SKILL.md'));
      const r = relative(realRoot, real);
      if (r.startsWith('..') || isAbsolute(r)) continue;
      text = await readFile(real, 'utf8');
    } catch {
      continue;
    }
    const parsed = splitFrontMatter(text);
    const meta = frontMatterSchema.safeParse(parsed?.meta);
    if (!parsed || !meta.success) {
      logger.warn({ skill: rel }, `skipping ${rel}: front matter needs "name" and "description"`);
      continue;
    }
    if (out.has(meta.data.name)) continue;
    const description = meta.data.description.replace(/\s+/g, ' ').trim().slice(0, MAX_DESCRIPTION);
    out.set(meta.data.name, { name: meta.data.name, description, path: rel, body: parsed.body });
    if (out.size >= MAX_SKILLS) break;
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The skills index (name, description, path), sorted by name. */
export async function loadSkills(root: string, logger: Logger = silentLogger): Promise<SkillInfo[]> {
  return (await loadSkillBodies(root, logger)).map(({ name, description, path }) => ({ name, description, path }));
}
