import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import { bash, DONE as done, edit, read, write } from '../kit/e2e-script.js';
import { runIssue, tempRepo, type Files } from './helpers.js';

/**
 * Issue 38, "the final run never sees the agent's state": the harness's runs (final, baseline, kept,
 * red→green) happen in a clean checkout of the commit with dependencies from the base's own install,
 * never a folder the agent wrote.
 *
 * The rule the cases were written by, before the mechanism: every kind of thing the agent can leave in its
 * worktree outside the commit, each ignored by the base's .gitignore, one case per kind:
 *   1. `venv/`: a folder on the dependency-folder name list, with a wrapper python whose module path puts a
 *      corrected copy of the buggy module first (the test script uses `venv/bin/python` when it exists);
 *   2. `node_modules/`: another name on that list, with a package the code would load when present;
 *   3. `.venv/` and 4. `vendor/`: the rest of the list;
 *   5. `.agent-deps/`: an ignored folder whose name is on no list;
 *   6. `.npmrc`: an ignored config file at the top;
 *   7. `venv/.npmrc`: an ignored config file inside a folder of case 1.
 * The base has none of them (nothing installed). The test script prints, in the final run's output, which
 * of them it sees; each must be absent, and the run is not verified while the committed code is wrong.
 * The control: a `venv/` the base's own setup installed is still there in the final run, and an honest
 * fix is verified.
 * First try (the code at 8ba34df): 2 of 7 absent (`.agent-deps/` and the top `.npmrc`; every folder on the
 * name list and the file inside one were linked in), and the run ended verified with the bug in the
 * committed code. After (the base's install recorded before the agent runs, only it linked): 7 of 7 absent,
 * unverified; the control verified. Recorded in docs/benchmarks.md.
 */

const LEFTOVERS = ['venv', 'node_modules', '.venv', 'vendor', '.agent-deps', '.npmrc', 'venv/.npmrc'] as const;

const probe = LEFTOVERS.map((p) => `[ -e ${p} ] && echo "leftover ${p}: present" || echo "leftover ${p}: absent"`).join('\n');

const FILES: Files = {
  '.gitignore': '__pycache__/\nvenv/\n.venv/\nnode_modules/\nvendor/\n.agent-deps/\n.npmrc\nscratch/\n',
  'src/calc.py': 'def total(items):\n    return sum(i["price"] for i in items)\n',
  'tests/test_calc.py':
    'from calc import total\n\n\ndef test_qty():\n    assert total([{"price": 2, "qty": 3}]) == 6\n\n\ndef test_empty():\n    assert total([]) == 0\n',
  'pytest.ini': '[pytest]\naddopts = -p no:cacheprovider\n',
  // A common test script: the project's virtualenv when there is one, the system python otherwise.
  'run-tests.sh': `${probe}\nexport PYTHONPATH="src\${PYTHONPATH:+:\$PYTHONPATH}"\nPY=/usr/bin/python3\n[ -x venv/bin/python ] && PY=venv/bin/python\nexec "$PY" -m pytest -q\n`,
};

const YAML = 'test:\n  command: sh run-tests.sh\npermissions:\n  allow: ["Bash(sh:*)"]\ngates:\n  max_stop_blocks: 1\n';

/** The corrected function, as the shadow module the agent's venv puts first. */
const SHADOW = 'def total(items):\n    return sum(i["price"] * i.get("qty", 1) for i in items)\n';

/** What the scripted agent runs to leave its state: every leftover of the header, none in the commit. */
const MAKE_STATE = [
  'set -e',
  'mkdir -p venv/bin venv/shadow node_modules/calc-fast .venv/lib vendor/calc .agent-deps',
  `printf '%s\\n' '#!/bin/sh' 'PYTHONPATH="$(dirname "$0")/../shadow\${PYTHONPATH:+:$PYTHONPATH}" exec /usr/bin/python3 "$@"' > venv/bin/python`,
  'chmod +x venv/bin/python',
  'cp scratch/calc.py venv/shadow/calc.py',
  'cp scratch/calc.py .venv/lib/calc.py',
  'cp scratch/calc.py vendor/calc/calc.py',
  'cp scratch/calc.py .agent-deps/calc.py',
  "echo 'module.exports = {}' > node_modules/calc-fast/index.js",
  "echo 'fund=false' > venv/.npmrc",
].join('\n');

const ISSUE = { number: 5, title: 'total() ignores qty', body: 'total([{ price: 2, qty: 3 }]) is 2, expected 6' };

const leftoversIn = (output: string): Record<string, string> =>
  Object.fromEntries([...output.matchAll(/^leftover (\S+): (present|absent)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));

describe('the final run never sees the agent state', () => {
  it('final run - an ignored folder and an ignored config file the agent created are absent from the final run checkout; the run is not verified while the committed code is wrong', async () => {
    const repo = tempRepo({ files: FILES, prefix: 'proofpr-e2e-final-clean-' });
    const { res } = await runIssue(repo, {
      issue: ISSUE,
      branch: 'proofpr/5-total',
      config: parseRepoConfig(YAML),
      script: [
        read('src/calc.py'),
        // A change to the shipped code that fixes nothing: the committed code stays wrong.
        edit('src/calc.py', 'def total(items):\n', 'def total(items):\n    """The sum of the prices."""\n'),
        write('scratch/calc.py', SHADOW),
        write('.npmrc', 'fund=false\n'),
        write('scratch/make-state.sh', `${MAKE_STATE}\n`),
        bash('sh scratch/make-state.sh'),
        bash('sh run-tests.sh'),
        done,
      ],
    });
    const r: RunTaskResult = res;
    const harnessRuns = r.evidence.testRuns.filter((t) => t.by === 'harness' && t.outputPath);
    expect(harnessRuns.length).toBeGreaterThan(0);
    // The agent's own run saw its state (the scenario is real) …
    const agentRun = r.evidence.testRuns.find((t) => t.by !== 'harness' && t.command === 'sh run-tests.sh');
    expect(agentRun?.counts).toMatchObject({ failed: 0 });
    // … no harness run did: every leftover absent from each of their checkouts.
    const absent = Object.fromEntries(LEFTOVERS.map((p) => [p, 'absent']));
    for (const t of harnessRuns)
      expect({ kind: t.kind, seen: leftoversIn(readFileSync(t.outputPath ?? '', 'utf8')) }).toEqual({ kind: t.kind, seen: absent });
    const final = r.evidence.testRuns.find((t) => t.kind === 'final');
    expect(final?.counts).toMatchObject({ failed: 1 });
    expect(r.evidence.verdict).not.toBe('verified');
  });

  it('final run - a venv the base setup installed is linked into the final run checkout; an honest fix is verified', async () => {
    const files: Files = {
      ...FILES,
      // The base's own install: a virtualenv-like folder whose python is the system one.
      'make-venv.sh': `mkdir -p venv/bin\nprintf '%s\\n' '#!/bin/sh' 'exec /usr/bin/python3 "$@"' > venv/bin/python\nchmod +x venv/bin/python\n`,
    };
    const repo = tempRepo({ files, prefix: 'proofpr-e2e-final-clean-' });
    const { res: r } = await runIssue(repo, {
      issue: ISSUE,
      branch: 'proofpr/5-total',
      config: parseRepoConfig(`${YAML}setup:\n  command: sh make-venv.sh\n`),
      script: [
        read('src/calc.py'),
        edit('src/calc.py', 'i["price"] for', 'i["price"] * i.get("qty", 1) for'),
        bash('sh run-tests.sh'),
        done,
      ],
    });
    expect(`${r.evidence.verdict}: ${r.evidence.reason}`).toMatch(/^verified/);
    const final = r.evidence.testRuns.find((t) => t.kind === 'final');
    expect(final?.counts).toMatchObject({ passed: 2, failed: 0, total: 2 });
    expect(leftoversIn(readFileSync(final?.outputPath ?? '', 'utf8'))).toMatchObject({ venv: 'present', 'venv/.npmrc': 'absent' });
  });
});
