import { reportOf, testCase } from './report-util.js';
import { junitCases } from './junit-cases.js';
import type { Runner } from './types.js';

/** `tests.test_calc.TestAdd` → `tests/test_calc.py` (the module is the dotted path up to the first CamelCase class). */
export function pythonFile(dotted: string): string | undefined {
  const parts = dotted.split('.').filter(Boolean);
  const cls = parts.findIndex((p) => /^[A-Z]/.test(p));
  const mod = cls < 0 ? parts : parts.slice(0, cls);
  return mod.length ? `${mod.join('/')}.py` : undefined;
}

const isPytest = (w: readonly string[]): number | undefined => {
  const b = w[0]?.split('/').pop();
  if (b === 'pytest' || b === 'py.test') return 1;
  if (b && /^python(3(\.\d+)?)?$/.test(b) && w[1] === '-m' && w[2] === 'pytest') return 3;
  return undefined;
};

/** pytest `--junitxml`: one `<testcase classname name>` per test; id `<file> > <Class>::<name>`. */
export const pytestRunner: Runner = {
  name: 'pytest',
  source: 'junit',
  match: isPytest,
  parse(text) {
    const cases = junitCases(text);
    if (!cases) return undefined;
    return reportOf(
      cases.map((c) => {
        const cls = c.attrs.classname ?? '';
        const file = c.attrs.file ?? pythonFile(cls);
        const inner = cls.split('.').filter((p) => /^[A-Z]/.test(p));
        return testCase(file, [...inner, c.attrs.name ?? ''].join('::'), c.outcome);
      }),
    );
  },
};
