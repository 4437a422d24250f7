import { PY_CORE_MODULE } from './python-observer-py.js';

/** The pytest plugin: a second JUnit XML report per pytest session, next to any the user asked for. */
export const PYTEST_PLUGIN_PY = `"""proofpr test observer's pytest plugin: one JUnit XML report per pytest session (the user's own
--junitxml, if any, is written as usual). Not loaded in xdist workers' place: the controller's report
holds their tests. With a selection file (a failing test re-run alone, the tests a change added), the
session keeps only the collected items it names; when it names none of them, the session runs whole."""
import json
import os

import ${PY_CORE_MODULE} as _o

_KEY = '_proofpr_observe'
SELECT = __SELECT__


def _wanted():
    try:
        with open(SELECT) as f:
            tests = json.load(f).get('tests') or []
        return set(t['file'] + '::' + t['name'] for t in tests if t.get('file') and t.get('name'))
    except Exception:
        return set()


def _picked(nodeid, wanted):
    return nodeid in wanted or any(w.endswith('/' + nodeid) or nodeid.endswith('/' + w) for w in wanted)


def pytest_collection_modifyitems(session, config, items):
    try:
        if hasattr(config, 'workerinput') or not getattr(config, _KEY, None):
            return
        wanted = _wanted()
        if not wanted:
            return
        keep = [i for i in items if _picked(i.nodeid, wanted)]
        if not keep:
            return
        dropped = [i for i in items if not _picked(i.nodeid, wanted)]
        items[:] = keep
        if dropped:
            config.hook.pytest_deselected(items=dropped)
    except Exception:
        pass


def pytest_configure(config):
    try:
        if hasattr(config, 'workerinput') or hasattr(config, 'slaveinput'):
            return
        n = _o.begin('pytest')
        if n is None:
            return
        try:
            from _pytest.junitxml import LogXML

            class QuietLogXML(LogXML):
                def pytest_terminal_summary(self, terminalreporter):
                    pass  # no "generated xml file" line: the output stays the user's

                def pytest_runtest_logreport(self, report):
                    # An expected failure is never a pass: an xfail test that passed (strict=False, "xpassed")
                    # is written as the xfail it was marked, skipped, not as a passed test.
                    if report.passed and report.when == 'call' and hasattr(report, 'wasxfail'):
                        self._opentestcase(report).append_skipped(report)
                        self.update_testcase_duration(report)
                        return
                    LogXML.pytest_runtest_logreport(self, report)

            tmp = _o.report_path('pytest', n) + '.tmp'
            try:
                xml = QuietLogXML(tmp, None, family='xunit2')
            except TypeError:
                xml = QuietLogXML(tmp, None)
            config.pluginmanager.register(xml, 'proofpr-observe-junitxml')
            setattr(config, _KEY, (n, tmp))
        except Exception:
            _o.end()
    except Exception:
        pass


def pytest_unconfigure(config):
    state = getattr(config, _KEY, None)
    if not state:
        return
    try:
        delattr(config, _KEY)
        n, tmp = state
        if os.path.exists(tmp):
            os.replace(tmp, _o.report_path('pytest', n))
    except Exception:
        pass
    finally:
        _o.end()
`;
