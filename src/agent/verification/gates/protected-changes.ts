/*
 * The commit gate against leaks and persistence (docs/security.md, rows "secret reads" and
 * "persistence in committed files"): the change may not newly track a secret-looking file, un-ignore
 * one in a .gitignore, or touch a control file the maintainer did not open (permissions.writable);
 * package lifecycle scripts it changes are listed (the PR body shows them under their own heading)
 * and fail unless `permissions.writable` holds `package.json#scripts`.
 */
import { classifyWorktree } from '../shipped/classify.js';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import ignore from 'ignore';
import type { GateResult } from '../../events.js';
import { git } from '../../../workspace/git.js';
import { isControlPath, isSecretName, isTokenFileName, writableMatcher } from '../../../workspace/protected-paths.js';
import { secretInFile } from '../../../workspace/secret-file.js';
import { worktreeDiff, type FileDiff } from '../changes/worktree-diff.js';
import { installTimeChanges, type LaterChange } from './runs-later.js';
import { conflictGate } from './conflict-markers.js';

export const LIFECYCLE_GATE = 'lifecycle-scripts';
export const PROTECTED_GATE = 'protected-paths';
export const LIFECYCLE_OPT_IN = 'package.json#scripts';

/** Scripts a package manager runs by itself (install, publish, test, start…) and every pre/post hook. */
const LIFECYCLE = new Set([
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'prepublishOnly',
  'prepack',
  'postpack',
  'publish',
  'postpublish',
  'pretest',
  'test',
  'posttest',
  'prestart',
  'start',
  'poststart',
  'prerestart',
  'restart',
  'postrestart',
  'prestop',
  'stop',
  'poststop',
  'preversion',
  'version',
  'postversion',
  'dependencies',
  'preuninstall',
  'uninstall',
  'postuninstall',
]);
const isLifecycle = (name: string): boolean => LIFECYCLE.has(name) || /^(pre|post)./.test(name);

/** Names a secret pattern of a .gitignore line would cover (what un-ignoring it would let `git add -A` take). */
const SECRET_PROBES = [
  '.env',
  '.env.local',
  '.env.production',
  'id_rsa',
  'id_ed25519',
  'server.key',
  'key.pem',
  '.npmrc',
  '.netrc',
  '.git-credentials',
  'credentials.json',
  '.pypirc',
  'secrets.yml',
];

export interface ProtectOptions {
  writable?: readonly string[];
  writableWorkflows?: boolean;
  /**
   * A person's change (proofpr verify): control files and what runs later are theirs to change, listed for
   * review (infrastructureChanges) rather than refused; secrets are still refused.
   */
  controlReviewed?: boolean;
}

export interface LifecycleChange {
  file: string;
  script: string;
  before?: string;
  after?: string;
}

async function scriptsAt(
  root: string,
  baseSha: string,
  file: string,
  gitDir?: string,
): Promise<{ before: Record<string, string>; after: Record<string, string> }> {
  const parse = (text: string | undefined): Record<string, string> => {
    try {
      const s = (JSON.parse(text ?? '{}') as { scripts?: unknown }).scripts;
      return s && typeof s === 'object' ? (s as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const env = gitDir ? { GIT_DIR: gitDir, GIT_WORK_TREE: root } : undefined;
  const base = await git(['show', `${baseSha}:${file}`], { cwd: root, okCodes: [0, 128], ...(env ? { env } : {}) }).catch(() => undefined);
  const now = await readFile(join(root, file), 'utf8').catch(() => undefined);
  return { before: parse(base?.code === 0 ? base.stdout : undefined), after: parse(now) };
}

/** Lifecycle scripts added, removed or changed in the package.json files of the change. */
export async function lifecycleChanges(
  root: string,
  baseSha: string,
  diffs: readonly FileDiff[],
  gitDir?: string,
): Promise<LifecycleChange[]> {
  const out: LifecycleChange[] = [];
  for (const d of diffs) {
    if (posix.basename(d.path) !== 'package.json' || d.path.split('/').includes('node_modules')) continue;
    const { before, after } = await scriptsAt(root, baseSha, d.path, gitDir);
    for (const script of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (!isLifecycle(script) || before[script] === after[script]) continue;
      out.push({
        file: d.path,
        script,
        ...(before[script] !== undefined ? { before: before[script] } : {}),
        ...(after[script] !== undefined ? { after: after[script] } : {}),
      });
    }
  }
  return out;
}

/** Lines of a .gitignore change that stop ignoring secret-looking files (a removed `.env`, an added `!.env`). */
function unIgnoresSecret(d: FileDiff): string | undefined {
  if (posix.basename(d.path) !== '.gitignore') return undefined;
  const covers = (pattern: string): boolean => {
    const p = pattern.trim();
    if (p === '' || p.startsWith('#')) return false;
    try {
      if (isSecretName(p.replace(/^\//, '')) || isTokenFileName(p.replace(/^\//, ''))) return true;
      const ig = ignore().add(p);
      return SECRET_PROBES.some((probe) => ig.ignores(probe) || ig.ignores(`sub/${probe}`));
    } catch {
      return false;
    }
  };
  const removed = d.removed.find((l) => covers(l.text));
  if (removed) return `removes "${removed.text.trim()}"`;
  const negated = d.added.find((l) => l.text.trim().startsWith('!') && covers(l.text.trim().slice(1)));
  return negated ? `adds "${negated.text.trim()}"` : undefined;
}

/** Why a changed file may not be committed (its content is a secret, or a copy of a masked file's), or undefined. */
function secretIn(root: string, d: FileDiff): string | undefined {
  return secretInFile(d.path, join(root, d.path));
}

/** The two gates over a list of file diffs (base → worktree). */
export async function protectedChangeGates(
  root: string,
  baseSha: string,
  diffs: readonly FileDiff[],
  opts: ProtectOptions & { gitDir?: string } = {},
): Promise<GateResult[]> {
  const isWritable = writableMatcher(opts.writable ?? [], opts.writableWorkflows ?? false);
  const problems: string[] = [];
  for (const d of diffs) {
    const paths = [d.path, ...(d.oldPath !== undefined ? [d.oldPath] : [])];
    const secret = d.status !== 'deleted' && !isWritable(d.path) ? secretIn(root, d) : undefined;
    if (secret)
      problems.push(`${d.path} ${secret} and would be ${d.status === 'added' || d.status === 'renamed' ? 'newly tracked' : 'committed'}`);
    const control = opts.controlReviewed ? undefined : paths.find((p) => isControlPath(p) && !isWritable(p));
    if (control)
      problems.push(
        `${control} is a control file (CI config, hooks, agent or package-manager config, .gitattributes, .gitmodules, .github/proofpr.yml) and was ${d.status}`,
      );
    const un = unIgnoresSecret(d);
    if (un) problems.push(`${d.path} ${un}, which would let secret files into the commit`);
  }
  // Install-time code of other ecosystems and core.hooksPath files (runs-later.ts): refused unless permissions.writable names the path.
  for (const c of await installTimeChanges(root, baseSha, diffs, opts.gitDir))
    if (!isWritable(c.path) && !opts.controlReviewed) problems.push(`${c.path} runs later (${c.why})`);
  const lifecycle = await lifecycleChanges(root, baseSha, diffs, opts.gitDir);
  // "package.json#scripts" opens every package.json's scripts; permissions.writable naming a package.json opens that one.
  const allowed =
    opts.controlReviewed === true || (opts.writable ?? []).includes(LIFECYCLE_OPT_IN) || lifecycle.every((c) => isWritable(c.file));
  const shown = (c: LifecycleChange): string =>
    `${c.file} scripts.${c.script}: ${c.before === undefined ? '(none)' : `\`${c.before}\``} → ${c.after === undefined ? '(removed)' : `\`${c.after}\``}`;
  return [
    problems.length === 0
      ? { name: PROTECTED_GATE, passed: true, detail: 'no secret file, un-ignored secret or control file in the change' }
      : {
          name: PROTECTED_GATE,
          passed: false,
          detail: `${problems.join('; ')}. Undo these changes (a maintainer can open a path with permissions.writable in .github/proofpr.yml)`,
        },
    lifecycle.length === 0
      ? { name: LIFECYCLE_GATE, passed: true, detail: 'no package lifecycle script changed' }
      : {
          name: LIFECYCLE_GATE,
          passed: allowed,
          // Changed lifecycle scripts the config allows: found, not blocking (advisory).
          ...(allowed ? { advisory: true as const } : {}),
          detail: `${lifecycle.map(shown).join('; ')}${allowed ? ' (allowed by permissions.writable: package.json#scripts)' : `. Package managers run these by themselves (install, test, publish): revert them, or a maintainer can allow it with "${LIFECYCLE_OPT_IN}" in permissions.writable`}`,
        },
  ];
}

/**
 * The gates over the worktree as it is now (for the verifier). When the worktree cannot be diffed, the
 * tree cannot be hashed either (tests-fresh fails and nothing is verified), and the commit itself still
 * refuses protected paths (publish.ts `protect`): no gate is added then.
 */
export async function protectedChangesNow(
  root: string,
  baseSha: string,
  opts: ProtectOptions & { gitDir?: string } = {},
): Promise<GateResult[]> {
  const diffs = await worktreeDiff(root, baseSha, () => true, opts.gitDir).catch(() => undefined);
  // Unresolved merge-conflict markers in a changed file stop the run too (conflict-markers.ts).
  if (!diffs) return [];
  const generated = await generatedFilesGate(root, baseSha, opts.gitDir);
  return [...(await protectedChangeGates(root, baseSha, diffs, opts)), conflictGate(diffs), ...(generated ? [generated] : [])];
}

/**
 * What in the change would run later (evidence `infrastructureChanges`, CONTRACT §11): npm lifecycle
 * scripts changed in any package.json, install-time code of other ecosystems and core.hooksPath files
 * (runs-later.ts), and control files (workflows, hooks, hook runners', agents' and package managers'
 * configs). Listed whether or not permissions.writable opened them: the reviewer sees each one.
 */
export async function infrastructureChanges(root: string, baseSha: string, gitDir?: string): Promise<LaterChange[]> {
  const diffs = await worktreeDiff(root, baseSha, () => true, gitDir).catch(() => undefined);
  if (!diffs) return [];
  const out: LaterChange[] = [];
  for (const c of await lifecycleChanges(root, baseSha, diffs, gitDir)) {
    const what = c.before === undefined ? 'added' : c.after === undefined ? 'removed' : 'changed';
    out.push({ path: c.file, why: `scripts.${c.script} ${what}: npm runs it by itself (install, pack, publish, or its own event)` });
  }
  out.push(...(await installTimeChanges(root, baseSha, diffs, gitDir)));
  for (const d of diffs) {
    const p = [d.path, ...(d.oldPath !== undefined ? [d.oldPath] : [])].find(isControlPath);
    if (p) out.push({ path: p, why: `control file (CI, hooks, agent or package-manager config: what runs after the agent); ${d.status}` });
  }
  const listed = new Set(out.map((c) => c.path));
  for (const c of await outsideShipped(root, baseSha, gitDir)) if (!listed.has(c.path)) out.push(c);
  return out;
}

const STATUS = { A: 'added', M: 'changed', D: 'removed' } as const;

/**
 * The changes that are neither the code the project ships, nor tests, nor dependencies (shipped/classify.ts):
 * runner, transform and build configs, data, fixtures, ignore rules, generated files, whatever their names.
 * The kept run restored each to the base; a binary file is never committed silently.
 */
async function outsideShipped(root: string, baseSha: string, gitDir?: string): Promise<LaterChange[]> {
  const view = await classifyWorktree(root, baseSha, gitDir).catch(() => undefined);
  if (!view) return [];
  const basis = view.basis.join('; ') || 'no manifest recognised: the test harness by its paths';
  return view.changes
    .filter((c) => c.kind === 'infrastructure' || (c.binary && c.status !== 'D'))
    .map((c) => ({
      path: c.path,
      why: c.binary
        ? `a binary file ${STATUS[c.status]} (generated or built output, bytecode): refused by gate generated-files`
        : `outside the code the project ships (${basis}); ${STATUS[c.status]}: the kept run put the base's version back`,
    }));
}

/**
 * Gate `generated-files`: binary files the agent added or changed (git's own judgement: no text diff).
 * Bytecode, build output and other generated files can shadow the source the tests should judge, and no
 * reviewer reads them: the run is refused until they are removed.
 */
export async function generatedFilesGate(root: string, baseSha: string, gitDir?: string): Promise<GateResult | undefined> {
  const view = await classifyWorktree(root, baseSha, gitDir).catch(() => undefined);
  if (!view) return undefined;
  const bins = view.changes.filter((c) => c.binary && c.status !== 'D').map((c) => c.path);
  return {
    name: 'generated-files',
    passed: bins.length === 0,
    detail: bins.length
      ? `binary files ${bins.slice(0, 8).join(', ')}${bins.length > 8 ? ', …' : ''} are in the change: proofpr commits no generated file, bytecode or build output. Remove them (git rm); a maintainer adds such a file by hand`
      : 'no binary file was added or changed',
  };
}
