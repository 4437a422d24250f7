import { describe, expect, it } from '@jest/globals';
import { detectPython } from '../../src/detect/python-project.js';
import { tempProject } from '../kit/verify-files.js';

/** What python detection finds in a temp project with these files. */
const detect = (files: Record<string, string>) => detectPython(tempProject(files, 'proofpr-pypkg-'));
/** A package `lib` whose `tests` folder is a package too, holding `test_core.py` with this text. */
const packageTests = (testCore: string) => ({ 'lib/__init__.py': '', 'lib/tests/__init__.py': '', 'lib/tests/test_core.py': testCore });

describe('python detection: tests inside the package', () => {
  it('python package tests - pkg/tests/test_*.py (both packages) gives unittest discovery from the top', async () => {
    const d = await detect({
      'setup.py': 'from setuptools import setup\nsetup(name="lib")\n',
      ...packageTests('import unittest\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertTrue(True)\n'),
    });
    expect(d?.test).toMatchObject({ command: 'python3 -m unittest discover', runner: 'unittest' });
    expect(d?.test?.why).toContain('lib/tests/test_core.py');
  });

  it('python package tests - a package test importing pytest gives pytest', async () => {
    const d = await detect({
      'pyproject.toml': '[project]\nname = "lib"\n',
      ...packageTests('import pytest\n\ndef test_x():\n    assert True\n'),
    });
    expect(d?.test?.command).toBe('python3 -m pytest');
  });

  it('python package tests - a tests folder that is not a package inside one is not taken', async () => {
    const d = await detect({ 'setup.py': '', 'lib/__init__.py': '', 'lib/tests/test_core.py': 'def test_x():\n    pass\n' });
    expect(d?.test).toBeUndefined();
  });
});
