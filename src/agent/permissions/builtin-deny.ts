/** Names refused whatever the repository config allows (matched on the command's basename). */
export const DENIED_COMMANDS: Record<string, string> = {
  ...Object.fromEntries(['sudo', 'su', 'doas', 'pkexec', 'runuser'].map((c) => [c, 'privilege escalation is never allowed'])),
  ...Object.fromEntries(
    [
      'curl',
      'wget',
      'nc',
      'ncat',
      'netcat',
      'socat',
      'ssh',
      'scp',
      'sftp',
      'rsync',
      'telnet',
      'ftp',
      'tftp',
      'lftp',
      'aria2c',
      'http',
      'https',
      'gh',
      'hub',
    ].map((c) => [c, 'network clients are never allowed; the agent works offline on the worktree']),
  ),
  ...Object.fromEntries(
    ['eval', 'source', '.', 'alias', 'unalias', 'trap', 'enable', 'coproc', 'fc', 'bind', 'let', 'mapfile', 'readarray'].map((c) => [
      c,
      'shell builtins that run or redefine code are never allowed; run the commands directly',
    ]),
  ),
  ...Object.fromEntries(
    ['bwrap', 'unshare', 'nsenter', 'chroot', 'mount', 'umount', 'docker', 'podman', 'kubectl', 'systemctl', 'crontab', 'at'].map((c) => [
      c,
      'container, namespace and system tools are never allowed',
    ]),
  ),
};

/** git subcommands refused whatever the config allows: they reach the network, change config or run programs. */
export const DENIED_GIT: ReadonlySet<string> = new Set([
  'push',
  'pull',
  'fetch',
  'remote',
  'config',
  'clone',
  'submodule',
  'credential',
  'credential-cache',
  'credential-store',
  'filter-branch',
  'ls-remote',
  'daemon',
  'send-email',
  'http-fetch',
  'http-push',
  'upload-pack',
  'receive-pack',
  'upload-archive',
  'difftool',
  'mergetool',
  'instaweb',
  'svn',
  'p4',
  'cvsimport',
  'worktree',
  'hook',
  'bisect',
]);

/**
 * git global options that are harmless (anything else before the subcommand is refused). Not
 * `--no-replace-objects`: the sandbox's git reads a masked file's committed blobs as empty through
 * replace refs (src/workspace/masked-objects.ts).
 */
export const GIT_SAFE_GLOBALS: ReadonlySet<string> = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--version',
  '--help',
]);

/** git long options that run programs, write files, or point git elsewhere; abbreviations count too. */
export const GIT_DANGEROUS_LONG = [
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--output',
  '--output-directory',
  '--ext-diff',
  '--textconv',
  '--config-env',
  '--config',
  '--git-dir',
  '--work-tree',
  '--open-files-in-pager',
  '--remote',
  '--template',
  '--no-index',
  '--exec-path',
];

export const PUBLISH_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'publish',
  'unpublish',
  'adduser',
  'login',
  'logout',
  'token',
  'owner',
  'deprecate',
  'dist-tag',
  'access',
  'yank',
  'upload',
  'push',
]);

/** Options of package managers that run a program of the caller's choosing. */
export const PM_DANGEROUS_LONG = ['--script-shell', '--node-options', '--userconfig', '--globalconfig', '--shell', '--call'];

/** Environment names that change how programs behave or what they load (prefix assignments and exports). */
export function dangerousEnvName(name: string): boolean {
  return (
    /^(IFS|PATH|ENV|BASH_ENV|BASHOPTS|SHELLOPTS|PS4|PROMPT_COMMAND|CDPATH|GLOBIGNORE|HOME|TMPDIR|SHELL|EDITOR|VISUAL|BROWSER|HISTFILE|NODE_OPTIONS|NODE_PATH|CLASSPATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|LESSOPEN|LESSCLOSE|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONINSPECT|PYTHONUSERBASE|RIPGREP_CONFIG_PATH|GREP_OPTIONS)$/.test(
      name,
    ) ||
    /^(LD_|DYLD_|GIT_|BASH_FUNC_|NPM_CONFIG_|npm_config_|YARN_|PNPM_|SSH_|GCONV_)/i.test(name) ||
    /PAGER$/i.test(name)
  );
}
