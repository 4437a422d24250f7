import { detectPackageManager, runScript, type PackageManager, type PackageManagerChoice } from './package-manager.js';
import { readText } from './read-text.js';
import { describeTrace, traceRunners } from './test-runner.js';
import type { DetectedCommands, DetectedSetup } from './types.js';
import { readManifest, readWorkspaces, type Manifest, type WorkspacePackage, type Workspaces } from './workspaces.js';

/** What `npm init` writes: a test script that only fails. */
const PLACEHOLDER = /no test specified/i;

const short = (s: string): string => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

/** A real test script: present, not empty, not npm's placeholder. */
const realTest = (m: Manifest): string | undefined => {
  const s = m.scripts.test?.trim();
  return s && !PLACEHOLDER.test(s) ? s : undefined;
};

const quoteArg = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The command that runs `test` in the workspaces that have one, as the package manager's own docs say:
 * one workspace by its folder or name, several with the package manager's "every workspace" form
 * (which skips the workspaces without the script).
 */
export function workspaceTestCommand(pm: PackageManager, withTests: WorkspacePackage[], all: WorkspacePackage[]): string {
  const one = withTests.length === 1 ? withTests[0] : undefined;
  const name = one?.manifest.name;
  switch (pm) {
    case 'npm':
      return one ? `npm test -w ${quoteArg(one.dir)}` : 'npm test --workspaces --if-present';
    case 'pnpm':
      return one ? `pnpm --filter ${quoteArg(name ?? `./${one.dir}`)} test` : 'pnpm -r test';
    case 'yarn-berry':
      if (one && name) return `yarn workspace ${quoteArg(name)} test`;
      return 'yarn workspaces foreach -A run test';
    case 'yarn-classic':
      if (one && name) return `yarn workspace ${quoteArg(name)} test`;
      if (withTests.length === all.length) return 'yarn workspaces run test';
      return withTests.map((p) => `yarn workspace ${quoteArg(p.manifest.name ?? p.dir)} test`).join(' && ');
    case 'bun':
      return `bun run --filter ${quoteArg(name ?? (one ? `./${one.dir}` : '*'))} test`;
  }
}

/** The root has no test script: the workspaces that have one, and the command that runs them. */
async function detectWorkspaces(
  root: string,
  ws: Workspaces,
  pm: PackageManagerChoice,
  setup: DetectedSetup | undefined,
  notes: string[],
): Promise<DetectedCommands> {
  const withTests = ws.packages.filter((p) => realTest(p.manifest) !== undefined);
  if (!withTests.length) {
    const none = `no workspace (${ws.packages.length} from ${ws.from}: ${ws.globs.join(', ')}) has a scripts.test`;
    return { ...(setup ? { setup } : {}), notes: [...notes, 'package.json has no scripts.test', none] };
  }
  const command = workspaceTestCommand(pm.pm, withTests, ws.packages);
  const trace = await traceRunners(root, command);
  const runner = trace.runners.length === 1 ? trace.runners[0] : undefined;
  const listed = withTests.map((p) => `${p.dir}${trace.runners.length ? '' : ` (\`${short(realTest(p.manifest) ?? '')}\`)`}`);
  const where = withTests.length === 1 ? `the workspace ${listed.join('')} has` : `the workspaces ${listed.join(', ')} have`;
  const runs = describeTrace(trace);
  const why = `the root package.json has no scripts.test; ${where} one (workspaces from ${ws.from})${runs ? `; ${runs}` : ''}; ${pm.why}`;
  return { test: { command, why, ...(runner ? { runner } : {}) }, ...(setup ? { setup } : {}), notes };
}

/**
 * A Node project: `scripts.test` of package.json (the runner it calls, following `npm run x` chains and
 * workspaces), run with the package manager of the lock file, whose frozen install is the setup command.
 * A workspace monorepo whose root has no test script gets the command that runs its workspaces' tests.
 */
export async function detectNode(root: string): Promise<DetectedCommands | undefined> {
  const text = await readText(root, 'package.json');
  if (text === undefined) return undefined;
  const pkg = await readManifest(root);
  if (!pkg) return { notes: ['package.json does not parse as JSON, so its scripts were not read'] };
  const notes: string[] = [];
  const pm = await detectPackageManager(root, pkg.packageManager);
  const ws = await readWorkspaces(root, pkg);
  const hasDeps = Object.keys(pkg.dependencies).length + Object.keys(pkg.devDependencies).length > 0 || ws !== undefined;
  if (!pm.setup && hasDeps)
    notes.push('package.json has dependencies but no lock file: set setup.command (e.g. `npm install`) to install them before the run');
  const setup = pm.setup && hasDeps ? pm.setup : undefined;
  const script = pkg.scripts.test?.trim();
  if (!realTest(pkg) && ws) return detectWorkspaces(root, ws, pm, setup, notes);
  if (!script) return { ...(setup ? { setup } : {}), notes: [...notes, 'package.json has no scripts.test'] };
  if (PLACEHOLDER.test(script))
    return { ...(setup ? { setup } : {}), notes: [...notes, "package.json scripts.test is npm's placeholder (`no test specified`)"] };
  const command = runScript(pm.pm, 'test');
  const trace = await traceRunners(root, command);
  const runner = trace.runners.length === 1 || !trace.fromDependencies ? trace.runners[0] : undefined;
  const calls = runner
    ? `runs ${trace.runners.join(' and ')} (\`${short(script)}\`${trace.steps.length > 1 ? `; ${trace.steps.slice(1).join(' → ')}` : ''})`
    : `is \`${short(script)}\``;
  return {
    test: { command, why: `package.json scripts.test ${calls}; ${pm.why}`, ...(runner ? { runner } : {}) },
    ...(setup ? { setup } : {}),
    notes,
  };
}
