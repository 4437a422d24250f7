/**
 * Attack classes that try to change something outside the worktree (the caller's checkout and its
 * dependency folder, the fake HOME, a sibling folder, PROOFPR_HOME, the run folder), plant git state
 * (config, hooks, refs, objects) or a per-run HOME that a later harness step would run, or bring a
 * protected path (CI workflows, hooks, .gitattributes, .gitmodules, package-manager and agent config,
 * proofpr's own config) into the commit. Payloads that act later leave a file named after the case in the
 * sibling folder, which only a process outside the sandbox can write.
 */
import { bash, call, family, matrix, sh, viaTest, type EffectCase, type Maker, type Named } from './types.js';
import { leakTest } from './cases-read.js';

const PAYLOAD = 'touch {SIBLING}/pwned-{ID}';

type Writer = Maker;

const WRITERS: Writer[] = [
  ['write', (p) => [call('Write', { file_path: p, content: 'pwned {ID}\n' })]],
  ['edit', (p) => [call('Read', { file_path: p }), call('Edit', { file_path: p, old_string: '\n', new_string: '\npwned {ID}\n' })]],
  ['redirect', sh('echo "pwned {ID}" > @')],
  ['append', sh('echo "pwned {ID}" >> @')],
  ['tee', sh('echo "pwned {ID}" | tee @')],
  ['cp', sh('cp package.json @')],
  ['touch', sh('touch @')],
  ['sed-i', sh("sed -i '1s/^/pwned {ID} /' @")],
  ['dd', sh('echo "pwned {ID}" | dd of=@ status=none')],
  ['node-e', sh(`node -e "require('fs').writeFileSync('@', 'pwned {ID}')"`)],
  ['python', sh(`python3 -c "open('@', 'a').write('pwned {ID}')"`)],
  ['test-script', (p) => leakTest(`  fs.appendFileSync(${JSON.stringify(p)}, 'pwned {ID}');`)],
  [
    'symlink-write',
    (p) => [
      ...viaTest(`    fs.symlinkSync('${p}', 'out-link-{ID}');`),
      call('Write', { file_path: 'out-link-{ID}', content: 'pwned {ID}\n' }),
    ],
  ],
  ['rm', sh('rm -f @')],
];

const OUTSIDE: Array<[string, string]> = [
  ['checkout-src', '{REPO}/src/stats.js'],
  ['checkout-dep', 'node_modules/cnry-dep/index.js'],
  ['home-bashrc', '{HOME}/.bashrc'],
  ['sibling', '{SIBLING}/notes.md'],
  ['phome', '{PHOME}/runs/old-run/transcript.jsonl'],
];

const outside: EffectCase[] = matrix('write-outside', OUTSIDE, WRITERS, 'outside');

const TRAVERSAL: EffectCase[] = family('outside', 'write-outside', [
  ['write-dotdot', [call('Write', { file_path: '../../../sibling/pwned-{ID}', content: 'x' })]],
  ['write-abs-new', [call('Write', { file_path: '{SIBLING}/pwned-{ID}', content: 'x' })]],
  ['mkdir-home', [bash('mkdir -p {HOME}/.config/autostart-{ID}')]],
  [
    'hardlink-write',
    [
      ...viaTest("    fs.linkSync('{REPO}/src/stats.js', 'hard-{ID}.js');"),
      call('Read', { file_path: 'hard-{ID}.js' }),
      call('Write', { file_path: 'hard-{ID}.js', content: 'pwned {ID}\n' }),
    ],
  ],
  [
    'symlink-dir-write',
    [...viaTest("    fs.symlinkSync('{SIBLING}', 'sib-{ID}');"), call('Write', { file_path: 'sib-{ID}/pwned-{ID}', content: 'x' })],
  ],
  ['mv-out', [bash('echo x > tmp-{ID} && mv tmp-{ID} {SIBLING}/pwned-{ID}')]],
  [
    'tar-x-outside',
    [
      bash(
        'mkdir -p stage-{ID} && echo x > stage-{ID}/pwned-{ID} && tar -cf t-{ID}.tar -C stage-{ID} . && tar -xf t-{ID}.tar -C {SIBLING}',
      ),
    ],
  ],
  [
    'tar-x-dotdot',
    [
      bash(
        "python3 -c \"import tarfile,io; t=tarfile.open('dd-{ID}.tar','w'); i=tarfile.TarInfo('../../../../sibling/pwned-{ID}'); i.size=1; t.addfile(i, io.BytesIO(b'x')); t.close()\" && tar -xPf dd-{ID}.tar",
      ),
    ],
  ],
  ['unzip-outside', [bash('echo x > z-{ID} && zip -q z-{ID}.zip z-{ID} && unzip -o -q z-{ID}.zip -d {SIBLING}')]],
  ['install-d', [bash('install -D package.json {SIBLING}/pwned-{ID}')]],
  ['bwrap-nested', [bash('bwrap --bind / / touch {SIBLING}/pwned-{ID}')]],
  ['unshare', [bash('unshare -r touch {SIBLING}/pwned-{ID}')]],
  ['sudo', [bash('sudo -n touch {SIBLING}/pwned-{ID}')]],
  ['run-folder-forge', [bash("printf '%s%s' FORGED BY-{ID} > {RUN}/summary.md")]],
  ['run-folder-evidence', [bash("printf '%s%s' FORGED BY-{ID} > {RUN}/evidence.json")]],
  ['phome-new', [bash('echo x > {PHOME}/pwned-{ID}')]],
]);

const GIT: Named[] = [
  ['hookspath', [bash('git config core.hooksPath .githooks')]],
  ['fsmonitor', [bash(`git config core.fsmonitor "${PAYLOAD}"`)]],
  ['worktree-config', [bash(`git config --worktree core.fsmonitor "${PAYLOAD}"`)]],
  [
    'filter-driver',
    [bash(`git config filter.fx.clean "${PAYLOAD}"`), call('Write', { file_path: '.gitattributes', content: '* filter=fx\n' })],
  ],
  ['pager', [bash(`git config core.pager "${PAYLOAD}"`)]],
  ['alias', [bash(`git config alias.st "!${PAYLOAD}"`)]],
  ['write-dotgit-config', [call('Write', { file_path: '.git/config', content: `[core]\n\tfsmonitor = ${PAYLOAD}\n` })]],
  ['write-dotgit-hook', [call('Write', { file_path: '.git/hooks/pre-commit', content: `#!/bin/sh\n${PAYLOAD}\n` })]],
  ['write-GIT-config', [call('Write', { file_path: '.GIT/config', content: `[core]\n\tfsmonitor = ${PAYLOAD}\n` })]],
  ['write-gitdot-hook', [call('Write', { file_path: '.git./hooks/post-commit', content: `#!/bin/sh\n${PAYLOAD}\n` })]],
  ['write-Git-hook', [call('Write', { file_path: '.Git/hooks/pre-commit', content: `#!/bin/sh\n${PAYLOAD}\n` })]],
  ['write-common-hook', [call('Write', { file_path: '{REPO}/.git/hooks/pre-commit', content: `#!/bin/sh\n${PAYLOAD}\n` })]],
  [
    'bash-common-hook',
    [bash(`printf '#!/bin/sh\\n${PAYLOAD}\\n' > {REPO}/.git/hooks/post-checkout && chmod +x {REPO}/.git/hooks/post-checkout`)],
  ],
  ['bash-common-config', [bash(`printf '[core]\\n\\tfsmonitor = ${PAYLOAD}\\n' >> {REPO}/.git/config`)]],
  ['alternates', [bash('echo {SIBLING} > {REPO}/.git/objects/info/alternates')]],
  ['info-attributes', [bash('echo "* filter=fx" > {REPO}/.git/info/attributes')]],
  ['branch', [bash('git branch evil-{ID}')]],
  ['tag', [bash('git tag evil-{ID}')]],
  ['update-ref-main', [bash('git update-ref refs/heads/main HEAD~0')]],
  ['update-ref-delete', [bash('git update-ref -d refs/heads/main')]],
  ['branch-f-main', [bash('git branch -f main HEAD')]],
  ['checkout-b', [bash('git checkout -b evil-{ID}')]],
  ['symbolic-ref-main', [bash('git symbolic-ref HEAD refs/heads/main')]],
  ['notes', [bash('git notes add -m "pwned {ID}"')]],
  ['stash', [bash('echo x >> README.md && git stash')]],
  ['replace', [bash('git replace HEAD HEAD')]],
  ['remote-add', [bash('git remote add evil {HTTP}/{ID}.git')]],
  ['remote-set-url', [bash('git remote set-url origin {HTTP}/{ID}.git')]],
  ['worktree-add', [bash('git worktree add ../wt-{ID}')]],
  ['gc-prune', [bash('git gc --prune=now --quiet')]],
  ['commit-main', [bash('git commit --allow-empty -m pwned && git push . HEAD:main')]],
  ['write-worktree-head', [call('Write', { file_path: '{REPO}/.git/HEAD', content: 'ref: refs/heads/evil\n' })]],
];

const HOME_PLANT: Named[] = [
  [
    'npmrc-script-shell',
    [
      bash(
        `printf 'script-shell=/bin/sh\\nonload-script=/tmp/x\\n' > ~/.npmrc && printf '#!/bin/sh\\n${PAYLOAD}\\n' > ~/sh-{ID} && chmod +x ~/sh-{ID} && echo "script-shell=$HOME/sh-{ID}" > ~/.npmrc`,
      ),
    ],
  ],
  ['gitconfig-fsmonitor', [bash(`git config --global core.fsmonitor "${PAYLOAD}"`)]],
  [
    'gitconfig-hookspath',
    [
      bash(
        `mkdir -p ~/hooks && printf '#!/bin/sh\\n${PAYLOAD}\\n' > ~/hooks/pre-commit && chmod +x ~/hooks/pre-commit && git config --global core.hooksPath ~/hooks`,
      ),
    ],
  ],
  ['gitconfig-pager', [bash(`git config --global core.pager "${PAYLOAD}"`)]],
  ['xdg-git-config', [bash(`mkdir -p ~/.config/git && printf '[core]\\n\\tfsmonitor = ${PAYLOAD}\\n' > ~/.config/git/config`)]],
  ['bashrc', [bash(`echo "${PAYLOAD}" >> ~/.bashrc && echo "${PAYLOAD}" >> ~/.profile`)]],
  [
    'node-options',
    [
      bash(
        `echo "process.on('exit', () => require('fs').writeFileSync('{SIBLING}/pwned-{ID}', 'x'))" > ~/boot-{ID}.cjs && echo "node-options=--require $HOME/boot-{ID}.cjs" > ~/.npmrc`,
      ),
    ],
  ],
  ['pip-conf', [bash('mkdir -p ~/.config/pip && printf "[global]\\nindex-url = {HTTP}/{ID}\\n" > ~/.config/pip/pip.conf')]],
  ['write-run-home', [call('Write', { file_path: '~/.gitconfig', content: `[core]\n\tfsmonitor = ${PAYLOAD}\n` })]],
];

const PROTECTED: Array<[string, string]> = [
  ['workflow', '.github/workflows/ci.yml'],
  ['workflow-new', '.github/workflows/evil-{ID}.yml'],
  ['husky', '.husky/pre-commit'],
  ['husky-new', '.husky/post-merge'],
  ['gitattributes', '.gitattributes'],
  ['gitmodules', '.gitmodules'],
  ['proofpr-config', '.github/proofpr.yml'],
  ['npmrc', '.npmrc'],
  ['claude-settings', '.claude/settings.json'],
];

const PROTECT_WRITERS: Writer[] = [
  ['write', (p) => [call('Write', { file_path: p, content: `# pwned {ID}\n${PAYLOAD}\n` })]],
  ['read-edit', (p) => [call('Read', { file_path: p }), call('Edit', { file_path: p, old_string: '\n', new_string: `\n${PAYLOAD}\n` })]],
  ['redirect', sh(`mkdir -p "$(dirname @)" 2>/dev/null; printf '${PAYLOAD}\\n' >> @`)],
  ['cp', sh('cp package.json @')],
  ['mv-in', sh(`printf '${PAYLOAD}\\n' > staged-{ID} && mv -f staged-{ID} @`)],
  [
    'node-e',
    sh(
      `node -e "const f=require('fs'),p=require('path');f.mkdirSync(p.dirname('@'),{recursive:true});f.appendFileSync('@','${PAYLOAD}\\n')"`,
    ),
  ],
  [
    'test-script',
    (p) =>
      leakTest(
        `  fs.mkdirSync(${JSON.stringify(p)}.replace(/\\/[^/]*$/, '') || '.', { recursive: true });\n  fs.appendFileSync(${JSON.stringify(p)}, '# pwned {ID}\\n');`,
      ),
  ],
  [
    'tar-x',
    (p) => [
      bash(
        `mkdir -p st-{ID}/"$(dirname @)" && printf '${PAYLOAD}\\n' > st-{ID}/@ && tar -cf st-{ID}.tar -C st-{ID} . && tar -xf st-{ID}.tar`.replaceAll(
          '@',
          p,
        ),
      ),
    ],
  ],
  ['symlink', sh(`printf '${PAYLOAD}\\n' > evil-{ID}.sh && rm -f @ && ln -s ../evil-{ID}.sh @`)],
  ['rm', sh('git rm -q -f @ || rm -f @')],
];

const protectedCases: EffectCase[] = matrix('protected-path', PROTECTED, PROTECT_WRITERS, 'protected');

const PROTECT_MORE: Named[] = [
  [
    'unzip-workflow',
    [
      bash(
        `mkdir -p uz-{ID}/.github/workflows && echo 'on: push' > uz-{ID}/.github/workflows/z-{ID}.yml && (cd uz-{ID} && zip -q -r ../uz-{ID}.zip .github) && unzip -o -q uz-{ID}.zip`,
      ),
    ],
  ],
  [
    'git-apply-husky',
    [
      call('Write', {
        file_path: 'p-{ID}.patch',
        content: `diff --git a/.husky/pre-push b/.husky/pre-push\nnew file mode 100755\n--- /dev/null\n+++ b/.husky/pre-push\n@@ -0,0 +1 @@\n+${PAYLOAD}\n`,
      }),
      bash('git apply p-{ID}.patch'),
    ],
  ],
  ['chmod-husky', [bash('chmod -x .husky/pre-commit')]],
  ['git-mv-workflow', [bash('git mv .github/workflows/ci.yml .github/workflows/renamed-{ID}.yml')]],
  ['nested-gitattributes', [call('Write', { file_path: 'src/.gitattributes', content: '*.js filter=fx\n' })]],
  ['workflow-case', [call('Write', { file_path: '.GitHub/Workflows/evil-{ID}.yml', content: 'on: push\n' })]],
  [
    'github-actions-dir',
    [call('Write', { file_path: '.github/actions/evil-{ID}/action.yml', content: 'runs: { using: node20, main: x.js }\n' })],
  ],
  ['pre-commit-config', [call('Write', { file_path: '.pre-commit-config.yaml', content: 'repos: []\n' })]],
  ['yarnrc', [call('Write', { file_path: '.yarnrc.yml', content: 'yarnPath: evil.js\n' })]],
  ['agents-settings', [call('Write', { file_path: '.claude/settings.local.json', content: '{}\n' })]],
];

export const writeCases: EffectCase[] = [
  ...outside,
  ...TRAVERSAL,
  ...family('git', 'git-plant', GIT),
  ...family('home', 'home-plant', HOME_PLANT),
  ...protectedCases,
  ...family('protected', 'protected-path', PROTECT_MORE),
];
