/**
 * `proofpr init [--repo DIR] [--workflow] [--force]`: write `.github/proofpr.yml` with the test and setup
 * commands detected from the repository (each with the reason as a comment) and a schema line for
 * editors; with --workflow also `.github/workflows/proofpr.yml` (the comment-triggered Action). An
 * existing file is left alone unless --force. The written config is validated before it is written.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_SCHEMA_ID } from '../../config/config-reference.js';
import { parseRepoConfig } from '../../config/repo-config.js';
import { detectCommands, type DetectedCommands } from '../../detect/detect-commands.js';
import { CONFIG_PATH } from './read-config-file.js';
import { packageRoot } from './package-root.js';
import { UsageError } from './usage-error.js';

export interface InitFlags {
  repo?: string;
  workflow?: boolean;
  force?: boolean;
}

const WORKFLOW_PATH = '.github/workflows/proofpr.yml';

/** The shipped schema, relative to the config file when proofpr is installed in the repository, else its URL. */
function schemaRef(repoDir: string): string {
  const local = join(repoDir, 'node_modules', 'proofpr', 'docs', 'proofpr.schema.json');
  return existsSync(local) ? relative(join(repoDir, '.github'), local) : CONFIG_SCHEMA_ID;
}

const yamlString = (s: string): string => JSON.stringify(s);
const comment = (s: string): string => s.replace(/\s*\n\s*/g, ' ');

export function renderInitConfig(detected: DetectedCommands, schema: string): string {
  const lines = [
    `# yaml-language-server: $schema=${schema}`,
    '# proofpr configuration: every key and its default is in the README ("Configuration").',
    '',
  ];
  if (detected.test) {
    lines.push('test:', `  # ${comment(detected.test.why)}`, `  command: ${yamlString(detected.test.command)}`);
  } else {
    lines.push(
      '# test:',
      '#   # nothing was detected: set the command that runs your tests (runs end unverified without one)',
      '#   command: "make test"',
    );
  }
  if (detected.setup) lines.push('', 'setup:', `  # ${comment(detected.setup.why)}`, `  command: ${yamlString(detected.setup.command)}`);
  for (const n of detected.notes) lines.push(`# note: ${comment(n)}`);
  lines.push(
    '',
    '# permissions:',
    '#   allow: ["Bash(npm run lint:*)"]   # commands the agent may run besides the test command and the safe list',
    '# sweeps:',
    '#   - name: fix-failing-tests',
    '#     schedule: "0 3 * * *"',
    '#     prompt: "Make the failing tests pass without weakening any assertion."',
    '',
  );
  return lines.join('\n');
}

const NODE_TOOLS = ['npm', 'pnpm', 'yarn-classic', 'yarn-berry', 'bun'];

/**
 * The workflow's install step for a Node project: the detected install when there is a lock file (it keeps
 * the lock as it is), else the package manager's plain install (`npm ci` refuses to run without a lock
 * file). pnpm and yarn come from corepack (Node's own), which the runner's Node has but does not enable.
 */
export function workflowInstall(detected: DetectedCommands): string {
  const locked = detected.setup && NODE_TOOLS.includes(detected.setup.tool) ? detected.setup.command : undefined;
  const bin = /^(pnpm|yarn|bun)\b/.exec(locked ?? detected.test?.command ?? '')?.[1] ?? 'npm';
  const install = locked ?? `${bin} install`;
  return bin === 'pnpm' || bin === 'yarn' ? `corepack enable && ${install}` : install;
}

/** The comment-triggered workflow; the Node set-up steps are kept only for Node projects, with the install that fits the lock file. */
export function renderInitWorkflow(detected: DetectedCommands): string {
  let text = readFileSync(join(packageRoot(), 'examples', 'workflows', 'proofpr-comment.yml'), 'utf8');
  const node = NODE_TOOLS.includes(detected.setup?.tool ?? '') || /^(npm|pnpm|yarn|bun|npx)\b/.test(detected.test?.command ?? '');
  if (node) text = text.replace(/^      - run: npm ci$/m, `      - run: ${workflowInstall(detected)}`);
  else {
    text = text.replace(
      /      - uses: actions\/setup-node@[^\n]*\n(?:        [^\n]*\n)*      - run: npm ci\n/,
      '      # set up your toolchain here (actions/setup-python, actions/setup-go, ...); proofpr runs setup.command itself\n',
    );
  }
  return text;
}

function writeNew(path: string, text: string, force: boolean, shown: string): void {
  if (existsSync(path) && !force) throw new UsageError(`${shown} already exists: edit it, or pass --force to overwrite it`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export async function initCommand(flags: InitFlags, out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  const repoDir = resolve(flags.repo ?? '.');
  if (!existsSync(repoDir)) throw new UsageError(`--repo ${flags.repo}: no such folder`);
  const detected = await detectCommands(repoDir);
  const text = renderInitConfig(detected, schemaRef(repoDir));
  parseRepoConfig(text, CONFIG_PATH); // what init writes is always a valid config
  const force = flags.force === true;
  const targets: Array<[string, string]> = [[CONFIG_PATH, text]];
  if (flags.workflow) targets.push([WORKFLOW_PATH, renderInitWorkflow(detected)]);
  for (const [rel] of targets)
    if (existsSync(join(repoDir, rel)) && !force) throw new UsageError(`${rel} already exists: edit it, or pass --force to overwrite it`);
  for (const [rel, body] of targets) writeNew(join(repoDir, rel), body, force, rel);
  out(`wrote ${CONFIG_PATH}\n`);
  out(
    detected.test
      ? `  test: ${detected.test.command} (${detected.test.why})\n`
      : '  test: nothing detected: set test.command in the file\n',
  );
  if (detected.setup) out(`  setup: ${detected.setup.command} (${detected.setup.why})\n`);
  if (flags.workflow) out(`wrote ${WORKFLOW_PATH} (add the ANTHROPIC_API_KEY repository secret)\n`);
  out('next: proofpr doctor\n');
  return 0;
}
