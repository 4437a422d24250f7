import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { exists, readText } from './read-text.js';
import type { DetectedCommands } from './types.js';

/** Where each file keeps pytest's settings. */
const PYTEST_CONFIG: Array<[string, RegExp, string]> = [
  ['pytest.ini', /^\s*\[pytest\]/m, 'pytest.ini'],
  ['pyproject.toml', /^\s*\[tool\.pytest\.ini_options\]/m, 'pyproject.toml [tool.pytest.ini_options]'],
  ['tox.ini', /^\s*\[pytest\]/m, 'tox.ini [pytest]'],
  ['setup.cfg', /^\s*\[tool:pytest\]/m, 'setup.cfg [tool:pytest]'],
];

const TEST_FILE = /^(test_.*|.*_test)\.py$/;

async function list(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }).catch(() => [])).map((d) => (d.isDirectory() ? `${d.name}/` : d.name));
}

/** Test files at the top level, in tests/ or test/, else in a package's own tests/ (one level down: enough to tell the style). */
async function testFiles(root: string): Promise<{ files: string[]; dir?: string; dirIsPackage: boolean }> {
  const top = (await list(root)).filter((f) => TEST_FILE.test(f));
  for (const dir of ['tests', 'test']) {
    const inside = await list(join(root, dir));
    const files = inside.filter((f) => TEST_FILE.test(f) || /^test.*\.py$/.test(f));
    if (files.length) return { files: [...top, ...files.map((f) => `${dir}/${f}`)], dir, dirIsPackage: inside.includes('__init__.py') };
  }
  // A package's own tests (`pkg/tests/test_*.py`, `pkg/tests` a package too): discovery from the top finds them.
  for (const pkg of (await list(root)).filter((f) => f.endsWith('/') && !f.startsWith('.'))) {
    for (const dir of ['tests', 'test']) {
      const inside = await list(join(root, pkg, dir));
      const files = inside.filter((f) => TEST_FILE.test(f));
      if (files.length && inside.includes('__init__.py') && (await exists(root, `${pkg}__init__.py`)))
        return { files: [...top, ...files.map((f) => `${pkg}${dir}/${f}`)], dirIsPackage: true };
    }
  }
  return { files: top, dirIsPackage: false };
}

async function usesPytest(root: string, files: readonly string[]): Promise<string | undefined> {
  for (const f of files.slice(0, 50)) {
    const text = (await readText(root, f)) ?? '';
    if (/^\s*(import pytest|from pytest\b)/m.test(text) || /^\s*@pytest\./m.test(text)) return `${f} imports pytest`;
  }
  if (await exists(root, 'conftest.py')) return 'conftest.py is there';
  return undefined;
}

/** A requirements file: pip's `-r` input (`requirements.txt`, `requirements-dev.txt`, `dev-requirements.txt`, `requirements/test.txt`). */
const REQUIREMENTS = /^(.*[-_.])?requirements([-_.].*)?\.(txt|in)$/i;
/** What a file or extra meant for the tests or development is called. */
const FOR_TESTS = /test|dev|ci\b/i;

/** The project's requirements files that the tests need: the top one and every test or dev one, at the top, in tests/ or requirements/. */
async function requirementFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const dir of ['', 'tests/', 'test/', 'requirements/']) {
    const names = (await list(join(root, dir))).filter((f) => REQUIREMENTS.test(f) || (dir === 'requirements/' && /\.(txt|in)$/.test(f)));
    for (const f of names.sort())
      if (f.endsWith('.txt') && (dir === 'tests/' || dir === 'test/' || FOR_TESTS.test(f) || /^requirements\.txt$/i.test(f)))
        out.push(`${dir}${f}`);
  }
  return out;
}

/** The extras of pyproject.toml's [project.optional-dependencies] meant for the tests (`test`, `tests`, `testing`, `dev`). */
async function testExtras(root: string): Promise<string[]> {
  const text = (await readText(root, 'pyproject.toml')) ?? '';
  const section = /^\[project\.optional-dependencies\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1] ?? '';
  return [...section.matchAll(/^\s*"?([A-Za-z0-9_.-]+)"?\s*=/gm)].map((m) => m[1] ?? '').filter((k) => FOR_TESTS.test(k));
}

/**
 * The install the tests need, from what the project declares: its requirements files for tests and
 * development, and its pyproject extras for them (installed with the project itself, `-e .[test]`).
 * Undefined when it declares none. pip installs into the Python the test command runs (on a runner,
 * actions/setup-python's; with a system Python that refuses pip, activate a virtualenv first).
 */
export async function pythonSetup(root: string): Promise<DetectedCommands['setup']> {
  const files = await requirementFiles(root);
  const extras = await testExtras(root);
  if (!files.length && !extras.length) return undefined;
  const args = [...files.map((f) => `-r ${f}`), ...(extras.length ? [`-e ".[${extras.join(',')}]"`] : [])];
  const what = [...files, ...(extras.length ? [`pyproject.toml's extras ${extras.join(', ')}`] : [])].join(', ');
  return { command: `python3 -m pip install ${args.join(' ')}`, tool: 'pip', why: `the tests' dependencies are declared in ${what}` };
}

/**
 * A Python project (pyproject.toml, setup.py, setup.cfg, tox.ini, pytest.ini, or test_*.py files):
 * pytest when it is configured or the tests use it, else unittest's discovery; the install of what it
 * declares for its tests (pythonSetup).
 */
export async function detectPython(root: string): Promise<DetectedCommands | undefined> {
  const found = await detectPythonTests(root);
  if (!found?.test) return found;
  const setup = await pythonSetup(root);
  return setup ? { ...found, setup } : found;
}

async function detectPythonTests(root: string): Promise<DetectedCommands | undefined> {
  for (const [file, re, where] of PYTEST_CONFIG) {
    const text = await readText(root, file);
    if (text !== undefined && re.test(text))
      return { test: { command: 'python3 -m pytest', runner: 'pytest', why: `pytest is configured in ${where}` }, notes: [] };
  }
  const markers = [];
  for (const f of ['pyproject.toml', 'setup.py', 'setup.cfg', 'tox.ini']) if (await exists(root, f)) markers.push(f);
  const t = await testFiles(root);
  if (!markers.length && !t.files.length) return undefined;
  const what = markers.length ? markers.join(', ') : 'Python test files';
  if (!t.files.length)
    return { notes: [`${what} found but no test_*.py or *_test.py files at the top, in tests/ or in a package's tests/`] };
  const pytest = await usesPytest(root, t.files);
  if (pytest) return { test: { command: 'python3 -m pytest', runner: 'pytest', why: `${what}: ${pytest}` }, notes: [] };
  // unittest discovery only walks packages: a tests/ folder without __init__.py is given as the start folder.
  const command = t.dir && !t.dirIsPackage ? `python3 -m unittest discover -s ${t.dir}` : 'python3 -m unittest discover';
  return {
    test: {
      command,
      runner: 'unittest',
      why: `${what}: ${t.files.length} test file(s) (${t.files[0]}…) and none imports pytest, so unittest`,
    },
    notes: [],
  };
}
