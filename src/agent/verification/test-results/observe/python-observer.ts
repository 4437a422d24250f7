import { delimiter, join } from 'node:path';
import { CORE_PY, PY_CORE_MODULE, PY_PYTEST_PLUGIN_MODULE, SITECUSTOMIZE_PY } from './python-observer-py.js';
import { PYTEST_PLUGIN_PY } from './pytest-plugin-py.js';
import { selectionFile } from './selection.js';
import { reportsDir, type Observer } from './types.js';

/** The folder the python observer puts first on PYTHONPATH. */
export const pythonDir = (dir: string): string => join(dir, 'py');

/**
 * pytest and unittest, observed from inside every Python process that has `<dir>/py` on its path:
 * PYTHONPATH gets that folder prepended, and its `sitecustomize.py` (which first runs the one it
 * shadows) patches the runners when they are imported, nothing else:
 * - pytest: a plugin registered by pytest's plugin manager writes a second JUnit XML report per
 *   session (`pytest-<pid>-<n>.report`, read by the pytest runner); a user's own `--junitxml` still
 *   gets written, and the terminal output is unchanged; with a selection (selection.ts) the session keeps
 *   only the items it names (by node id);
 * - unittest: `TextTestRunner.run` (`python -m unittest`, `unittest.main()` in a script, Django's
 *   runner, …) records every test its result saw start, doctests from `load_tests` and
 *   FunctionTestCases included (`unittest-<pid>-<n>.report`, JSON read by the unittest runner).
 * A runner call inside another runner call (a test that runs pytest, in-process or as a child
 * process) writes nothing. Python started with -S, -E or -I, or with PYTHONPATH replaced by the
 * command (`PYTHONPATH=src pytest`), does not load the folder: such a call is not observed.
 */
export const pythonObserver: Observer = {
  name: 'python',
  files(dir) {
    const py = pythonDir(dir);
    return [
      { path: join(py, 'sitecustomize.py'), content: SITECUSTOMIZE_PY },
      { path: join(py, `${PY_CORE_MODULE}.py`), content: CORE_PY.replace('__REPORTS__', JSON.stringify(reportsDir(dir))) },
      {
        path: join(py, `${PY_PYTEST_PLUGIN_MODULE}.py`),
        content: PYTEST_PLUGIN_PY.replace('__SELECT__', JSON.stringify(selectionFile(dir))),
      },
    ];
  },
  env(dir, base) {
    const rest = base.PYTHONPATH;
    return { PYTHONPATH: rest ? `${pythonDir(dir)}${delimiter}${rest}` : pythonDir(dir) };
  },
};
