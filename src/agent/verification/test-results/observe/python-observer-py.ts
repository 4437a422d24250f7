/**
 * The Python sources the python observer writes into `<dir>/py` (which it prepends to PYTHONPATH).
 * Kept to Python 3.6 syntax; every hook catches its own errors, so a failure of the observer leaves
 * the process exactly as it would have run without it (it then just writes no report).
 */

/** The module names the observer puts on sys.path (besides `sitecustomize`). */
export const PY_CORE_MODULE = '_proofpr_observe';
export const PY_PYTEST_PLUGIN_MODULE = '_proofpr_observe_pytest';

/**
 * `sitecustomize.py`: runs the sitecustomize it shadows (the next one on sys.path, such as Debian's)
 * first, then loads the observer core, which stays inert until a runner starts.
 */
export const SITECUSTOMIZE_PY = `# proofpr test observer (written for one harness run; changes nothing unless a test runner runs).
def _proofpr_chain():
    import importlib.machinery
    import importlib.util
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))

    def ours(entry):
        try:
            return os.path.realpath(entry or os.getcwd()) == os.path.realpath(here)
        except Exception:
            return False

    spec = importlib.machinery.PathFinder.find_spec('sitecustomize', [p for p in sys.path if not ours(p)])
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules['sitecustomize'] = module
    spec.loader.exec_module(module)


_proofpr_error = None
try:
    _proofpr_chain()
except BaseException as e:  # the shadowed sitecustomize's own error: raised again below, as site would show it
    _proofpr_error = e
try:
    import ${PY_CORE_MODULE}

    ${PY_CORE_MODULE}.install()
except Exception:
    pass
if _proofpr_error is not None:
    raise _proofpr_error
`;

/** The core: the nesting guard, report files, the import hook, and the unittest recorder. */
export const CORE_PY = `"""proofpr test observer: records the tests each runner call of this process ran.

A runner call (a pytest session, a unittest TextTestRunner.run) writes
<reports>/<runner>-<pid>-<n>.report at its end (written to .tmp, then renamed), and an empty .seen file
when it starts. A runner call inside another one (a test that runs pytest or unittest, in this process
or a child process) is not a call of the command: it writes nothing.
"""
import os
import sys

REPORTS = __REPORTS__
GUARD = 'PROOFPR_OBSERVED_RUNNER'
_state = {'n': 0, 'depth': 0, 'prev': None}


def _file(runner, n, ext):
    return os.path.join(REPORTS, '%s-%d-%d%s' % (runner, os.getpid(), n, ext))


def report_path(runner, n):
    return _file(runner, n, '.report')


def begin(runner):
    """A runner call starts: its number in this process, or None when it is inside another call."""
    try:
        mark = os.environ.get(GUARD)
        if _state['depth'] > 0 or (mark and mark != str(os.getpid())):
            return None
        _state['n'] += 1
        _state['depth'] = 1
        _state['prev'] = mark
        os.environ[GUARD] = str(os.getpid())
        try:
            os.makedirs(REPORTS, exist_ok=True)
            open(_file(runner, _state['n'], '.seen'), 'w').close()
        except Exception:
            pass
        return _state['n']
    except Exception:
        return None


def end():
    try:
        _state['depth'] = 0
        if _state['prev'] is None:
            os.environ.pop(GUARD, None)
        else:
            os.environ[GUARD] = _state['prev']
    except Exception:
        pass


def write(runner, n, text):
    try:
        final = report_path(runner, n)
        with open(final + '.tmp', 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(final + '.tmp', final)
    except Exception:
        pass


def _describe(test):
    """The test's id, and where known its source file and its name in that file ('Class::test_x')."""
    d = {}
    try:
        d['id'] = str(test.id())
    except Exception:
        d['id'] = repr(test)
    try:
        cls = type(test)
        dt = getattr(test, '_dt_test', None)
        if dt is not None:
            name = dt.name
            if cls.__name__ != 'DocFileCase':
                mod = (dt.globs or {}).get('__name__') or ''
                if mod and name.startswith(mod + '.'):
                    name = name[len(mod) + 1:]
                elif mod and name == mod:
                    name = name.rsplit('.', 1)[-1]
                name = name.replace('.', '::')
            d['name'] = name
            if dt.filename:
                d['file'] = os.path.abspath(dt.filename)
            return d
        func = getattr(test, '_testFunc', None)
        if func is not None:
            owner, qual = func.__module__, func.__qualname__
        elif cls.__name__ == '_ErrorHolder':
            d['name'] = str(getattr(test, 'description', d['id']))
            return d
        else:
            method = getattr(test, '_testMethodName', None)
            if not method or cls.__module__ == 'unittest' or cls.__module__.startswith('unittest.'):
                return d
            owner, qual = cls.__module__, cls.__qualname__ + '.' + method
        d['name'] = qual.replace('.', '::')
        f = getattr(sys.modules.get(owner), '__file__', None)
        if f:
            d['file'] = os.path.abspath(f)
    except Exception:
        pass
    return d


class _Recorder(object):
    """Every test a unittest result saw start, with its outcome (a failed subTest fails its test)."""

    EVENTS = ('startTest', 'stopTest', 'addSuccess', 'addFailure', 'addError', 'addSkip',
              'addExpectedFailure', 'addUnexpectedSuccess', 'addSubTest')

    def __init__(self):
        self.tests = []
        self.open = {}
        self.result = None

    def attach(self, result):
        try:
            for name in self.EVENTS:
                fn = getattr(result, name, None)
                if callable(fn):
                    setattr(result, name, self._hook(name, fn))
            self.result = result
        except Exception:
            pass
        return result

    def _hook(self, name, fn):
        def hook(*args, **kwargs):
            try:
                self.event(name, args)
            except Exception:
                pass
            return fn(*args, **kwargs)
        return hook

    def _extra(self, test, outcome):
        entry = _describe(test)
        entry['outcome'] = outcome
        self.tests.append(entry)

    def event(self, name, args):
        test = args[0] if args else None
        if name == 'startTest':
            entry = _describe(test)
            entry['outcome'] = 'passed'
            self.tests.append(entry)
            self.open[id(test)] = entry
            return
        if name == 'stopTest':
            self.open.pop(id(test), None)
            return
        parent = getattr(test, 'test_case', None) if type(test).__name__ == '_SubTest' else None
        entry = self.open.get(id(parent if parent is not None else test))
        if name in ('addFailure', 'addError', 'addUnexpectedSuccess') or (name == 'addSubTest' and len(args) > 2 and args[2] is not None):
            if entry is not None:
                entry['outcome'] = 'failed'
            else:
                self._extra(test, 'failed')  # a class or module fixture error: not in "Ran N"
        elif name == 'addExpectedFailure':
            # An expected failure is never a pass: the test failed, as it was marked to (pytest's xfail is skipped too).
            if entry is not None and parent is None:
                entry['outcome'] = 'skipped'
        elif name == 'addSkip':
            # A class or module fixture's skip (setUpClass raising SkipTest) is no test the runner ran: unittest
            # leaves it out of "Ran N" (its tests never start), so it is not recorded; its error is (above).
            if entry is not None and parent is None and entry['outcome'] == 'passed':
                entry['outcome'] = 'skipped'

    def text(self):
        import json

        return json.dumps({'unittest': 1, 'testsRun': getattr(self.result, 'testsRun', None), 'tests': self.tests})


def _patch_unittest(module):
    cls = getattr(module, 'TextTestRunner', None)
    if cls is None or getattr(cls.run, '_proofpr', False):
        return
    original = cls.run

    def run(self, test):
        n = begin('unittest')
        if n is None:
            return original(self, test)
        rec = _Recorder()
        had, make = None, None
        try:
            had = '_makeResult' in self.__dict__
            make = self._makeResult
            self._makeResult = lambda: rec.attach(make())
        except Exception:
            had = None
        done = False
        try:
            result = original(self, test)
            done = True
            return result
        finally:
            try:
                if had:
                    self._makeResult = make
                elif had is not None:
                    self.__dict__.pop('_makeResult', None)
                if done and rec.result is not None:
                    write('unittest', n, rec.text())
            except Exception:
                pass
            end()

    run._proofpr = True
    cls.run = run


def _patch_pytest(module):
    cls = getattr(module, 'PytestPluginManager', None)
    consider_env = getattr(cls, 'consider_env', None)
    if consider_env is None or getattr(consider_env, '_proofpr', False):
        return

    def patched(self, *args, **kwargs):
        out = consider_env(self, *args, **kwargs)
        try:
            import ${PY_PYTEST_PLUGIN_MODULE} as plugin

            if not self.is_registered(plugin):
                self.register(plugin, 'proofpr-observe')
        except Exception:
            pass
        return out

    patched._proofpr = True
    cls.consider_env = patched


_PATCHES = {'unittest.runner': _patch_unittest, '_pytest.config': _patch_pytest}


class _Loader(object):
    def __init__(self, loader, patch):
        self._loader = loader
        self._patch = patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        try:
            self._patch(module)
        except Exception:
            pass

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _Finder(object):
    """Patches a runner's module right after its first import; passes every other import on."""

    def find_spec(self, name, path=None, target=None):
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        try:
            for finder in sys.meta_path:
                find = getattr(finder, 'find_spec', None)
                if finder is self or find is None:
                    continue
                spec = find(name, path, target)
                if spec is not None:
                    if spec.loader is not None and hasattr(spec.loader, 'exec_module'):
                        spec.loader = _Loader(spec.loader, patch)
                    return spec
        except Exception:
            pass
        return None


def install():
    for name, patch in _PATCHES.items():
        if name in sys.modules:
            try:
                patch(sys.modules[name])
            except Exception:
                pass
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
`;
