/** The install a Python project's tests need, from what it declares (src/detect/python-project.ts), and doctor's runner-error reading. */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { detectPython, pythonSetup } from '../../src/detect/python-project.js';
import { runnerError } from '../../src/hosts/cli/doctor/test-check.js';
import { tempDir } from '../kit/temp.js';

function project(files: Record<string, string>): string {
  const dir = tempDir('proofpr-py-setup-');
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

describe('python: the install the tests need', () => {
  it.each([
    [{ 'tests/requirements.txt': 'pytest\n' }, 'python3 -m pip install -r tests/requirements.txt'],
    [{ 'requirements.txt': 'x\n', 'requirements-dev.txt': 'y\n' }, 'python3 -m pip install -r requirements-dev.txt -r requirements.txt'],
    [{ 'requirements/test.txt': 'x\n', 'requirements/docs.txt': 'y\n' }, 'python3 -m pip install -r requirements/test.txt'],
    [{ 'dev-requirements.txt': 'x\n' }, 'python3 -m pip install -r dev-requirements.txt'],
    [
      { 'pyproject.toml': '[project]\nname = "p"\n\n[project.optional-dependencies]\ntest = ["pytest"]\ndocs = ["sphinx"]\n\n[tool.x]\n' },
      'python3 -m pip install -e ".[test]"',
    ],
  ])('%j → %s', async (files, command) => {
    expect((await pythonSetup(project(files)))?.command).toBe(command);
  });

  it('nothing declared: no install; a pytest project gets its test command and the install together', async () => {
    expect(await pythonSetup(project({ 'requirements/docs.txt': 'sphinx\n' }))).toBeUndefined();
    const d = await detectPython(project({ 'pytest.ini': '[pytest]\n', 'tests/requirements.txt': 'pytest\n', 'tests/test_a.py': '' }));
    expect(d?.test?.command).toBe('python3 -m pytest');
    expect(d?.setup).toMatchObject({ command: 'python3 -m pip install -r tests/requirements.txt', tool: 'pip' });
  });

  it("the runner's own error: a plugin option pytest does not know, an import that finds nothing", () => {
    expect(
      runnerError('ERROR: usage: __main__.py [options] [file_or_dir]\n__main__.py: error: unrecognized arguments: --cov=parse\n'),
    ).toEqual({
      line: '__main__.py: error: unrecognized arguments: --cov=parse',
      missing: "pytest-cov (its --cov option is in pytest's addopts)",
    });
    expect(runnerError("E   ModuleNotFoundError: No module named 'attr'\n")?.missing).toBe('the module attr');
    expect(runnerError('error: unrecognized arguments: --frobnicate')?.missing).toBe('the pytest plugin that provides --frobnicate');
    expect(runnerError('1 passed')).toBeUndefined();
  });
});
