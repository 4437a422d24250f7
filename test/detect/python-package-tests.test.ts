import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { detectPython } from '../../src/detect/python-project.js';
import { tempDir } from '../kit/temp.js';

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = tempDir('proofpr-pypkg-');
  temps.push(dir);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

describe('python detection: tests inside the package', () => {
  it('python package tests - pkg/tests/test_*.py (both packages) gives unittest discovery from the top', async () => {
    const dir = project({
      'setup.py': 'from setuptools import setup\nsetup(name="lib")\n',
      'lib/__init__.py': '',
      'lib/tests/__init__.py': '',
      'lib/tests/test_core.py': 'import unittest\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertTrue(True)\n',
    });
    const d = await detectPython(dir);
    expect(d?.test).toMatchObject({ command: 'python3 -m unittest discover', runner: 'unittest' });
    expect(d?.test?.why).toContain('lib/tests/test_core.py');
  });

  it('python package tests - a package test importing pytest gives pytest', async () => {
    const dir = project({
      'pyproject.toml': '[project]\nname = "lib"\n',
      'lib/__init__.py': '',
      'lib/tests/__init__.py': '',
      'lib/tests/test_core.py': 'import pytest\n\ndef test_x():\n    assert True\n',
    });
    expect((await detectPython(dir))?.test?.command).toBe('python3 -m pytest');
  });

  it('python package tests - a tests folder that is not a package inside one is not taken', async () => {
    const dir = project({ 'setup.py': '', 'lib/__init__.py': '', 'lib/tests/test_core.py': 'def test_x():\n    pass\n' });
    expect((await detectPython(dir))?.test).toBeUndefined();
  });
});
