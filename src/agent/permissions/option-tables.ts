/*
 * The options each built-in safe command accepts (docs/security.md, rows "exfiltration", "secret
 * reads", "harness tampering"), from each tool's manual (GNU coreutils, grep, findutils, sed, ripgrep,
 * git). An option that is not here makes the command not safe; a config allow rule admits it only when
 * the rule names it. Left out on purpose: options that run programs (`sort --compress-program`, `rg
 * --pre`, `rg -z`, `file -z`, `diff --paginate`), read file names from a file (`--files0-from`, `md5sum
 * -c`, `file -f`), write files (`sort -o`, `sed -i`, `file -C`), or follow the caller elsewhere.
 */
import type { Arity, OptionTable } from './parse-options.js';

/**
 * `'all block-size= color=?'` → { all: 'none', 'block-size': 'req', color: 'opt' }. A name listed twice
 * (git's table is the union of its subcommands': `status --porcelain[=<version>]`, `blame --porcelain`)
 * keeps the reading that accepts both spellings: `none` and `opt` make `opt` (`--x` and `--x=v`, as
 * git's parse-options reads an optional value); `req` stays `req`.
 */
function L(spec: string): Record<string, Arity> {
  const out: Record<string, Arity> = {};
  for (const w of spec.split(/\s+/).filter(Boolean)) {
    const [name, arity]: [string, Arity] = w.endsWith('=?')
      ? [w.slice(0, -2), 'opt']
      : w.endsWith('=')
        ? [w.slice(0, -1), 'req']
        : [w, 'none'];
    const prev = out[name];
    out[name] = prev === undefined || prev === arity ? arity : prev === 'req' || arity === 'req' ? 'req' : 'opt';
  }
  return out;
}

const HV = 'help version';

const GREP: OptionTable = {
  flags: 'EFGPiyvwxcLloqsbHhnTZzrRUaIV',
  req: 'efmABCdD',
  numeric: true,
  long: L(`extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case word-regexp line-regexp
    null-data no-messages invert-match max-count= byte-offset line-number no-line-number line-buffered with-filename no-filename label=
    only-matching quiet silent binary-files= text directories= devices= recursive dereference-recursive include= exclude= exclude-from=
    exclude-dir= files-without-match files-with-matches count initial-tab null context= after-context= before-context= color=? colour=?
    binary ${HV}`),
};

const GIT_LONG = L(`
  stat=? numstat shortstat dirstat=? cumulative dirstat-by-file=? summary patch-with-stat patch-with-raw name-only name-status raw patch
  no-patch unified= output-indicator-new= output-indicator-old= output-indicator-context= word-diff=? word-diff-regex= color=? no-color
  color-moved=? no-color-moved color-moved-ws= no-color-moved-ws color-words=? no-renames renames rename-empty no-rename-empty check
  ws-error-highlight= full-index binary abbrev=? no-abbrev break-rewrites=? find-renames=? find-copies=? find-copies-harder
  irreversible-delete diff-filter= find-object= pickaxe-all pickaxe-regex skip-to= rotate-to= relative=? no-relative text
  ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines=
  inter-hunk-context= function-context exit-code quiet no-ext-diff no-textconv ignore-submodules=? src-prefix= dst-prefix= no-prefix
  default-prefix line-prefix= ita-invisible-in-index ita-visible-in-index minimal patience histogram anchored= diff-algorithm=
  indent-heuristic no-indent-heuristic compact-summary merge-base cached staged submodule=? stat-width= stat-name-width= stat-count=
  stat-graph-width= null
  oneline graph no-graph decorate=? no-decorate decorate-refs= decorate-refs-exclude= clear-decorations source use-mailmap mailmap
  no-mailmap full-diff log-size follow no-follow all branches=? tags=? remotes=? glob= exclude= exclude-hidden= reflog not max-count= skip=
  since= after= until= before= author= committer= grep= grep-reflog= all-match invert-grep regexp-ignore-case basic-regexp extended-regexp
  fixed-strings perl-regexp merges no-merges min-parents= max-parents= no-min-parents no-max-parents first-parent ancestry-path=?
  simplify-by-decoration full-history dense sparse simplify-merges show-pulls topo-order date-order author-date-order reverse
  no-walk=? do-walk pretty=? format= abbrev-commit no-abbrev-commit encoding= expand-tabs=? no-expand-tabs notes=? no-notes show-notes=?
  relative-date date= parents children left-right left-only right-only cherry-pick cherry-mark cherry boundary count walk-reflogs merge
  diff-merges= no-diff-merges combined-all-paths cc dd remerge-diff show-linear-break ignore-missing objects objects-edge in-commit-order
  timestamp header single-worktree indexed-objects disk-usage=? unpacked stdin
  short branch show-stash porcelain=? long verbose untracked-files=? ignored=? column=? no-column ahead-behind no-ahead-behind
  porcelain line-porcelain incremental show-email show-name show-number root show-stats contents= ignore-rev= ignore-revs-file=
  color-lines color-by-age progress no-progress score-debug
  deleted modified others killed stage unmerged error-unmatch with-tree= exclude-from= exclude-per-directory= exclude-standard
  full-name recurse-submodules no-recurse-submodules debug eol deduplicate directory no-empty-directory resolve-undo
  show-toplevel abbrev-ref=? verify symbolic symbolic-full-name is-inside-work-tree is-inside-git-dir is-bare-repository
  is-shallow-repository show-prefix show-cdup absolute-git-dir git-common-dir show-object-format=? show-superproject-working-tree
  show-ref-format sq short=? default= prefix= end-of-options
  list contains=? no-contains=? merged=? no-merged=? sort= show-current points-at=
  name-status object-only full-tree batch-check=? buffer unordered allow-unknown-type
  follow-symlinks path=
  exact-match candidates= match= always dirty=? broken=? first-match
  numbered email group= octopus independent is-ancestor fork-point
  ignore-case max-depth= recursive no-recursive word-regexp invert-match line-number column files-with-matches
  files-without-match null only-matching break heading show-function context= after-context= before-context= threads= and or
  untracked no-exclude-standard fixed-strings all-match max-count=
  no-commit-id always refs= annotate-stdin name-only no-undefined non-matching
  ${HV}`);

/** Tables by command name (git's long options are shared by its read-only subcommands; see safeListLabel). */
export const OPTION_TABLES: Record<string, OptionTable> = {
  ls: {
    flags: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1',
    req: 'IwT',
    long: L(`all almost-all author escape block-size= ignore-backups color=? directory dired classify=? file-type format= full-time
      group-directories-first no-group human-readable si dereference-command-line dereference-command-line-symlink-to-dir hide=
      hyperlink=? indicator-style= inode ignore= kibibytes dereference numeric-uid-gid literal hide-control-chars show-control-chars
      quote-name quoting-style= reverse recursive size sort= time= time-style= tabsize= width= context zero ${HV}`),
  },
  cat: { flags: 'AbeEnstTuv', long: L(`show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting ${HV}`) },
  head: { flags: 'qvz', req: 'cn', numeric: true, long: L(`bytes= lines= quiet silent verbose zero-terminated ${HV}`) },
  tail: {
    flags: 'fFqvzr',
    req: 'cns',
    numeric: true,
    long: L(`bytes= lines= follow=? retry pid= quiet silent sleep-interval= verbose zero-terminated max-unchanged-stats= ${HV}`),
  },
  wc: { flags: 'cmlLw', long: L(`bytes chars lines max-line-length words total= ${HV}`) },
  file: {
    flags: 'bhiLNrsk0lE',
    req: 'Fe',
    long: L(
      `brief mime mime-type mime-encoding dereference no-dereference keep-going raw special-files separator= exclude= print0 extension apple ${HV}`,
    ),
  },
  stat: { flags: 'LtfZ', req: 'c', long: L(`dereference file-system format= printf= terse cached= ${HV}`) },
  pwd: { flags: 'LP', long: L(HV) },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    flags: 'abcFhHiIlLnNopqsSuUvVwx0.',
    req: 'ABCdeEfgjmMrtT',
    abbrev: false,
    long: L(`after-context= before-context= context= binary no-binary block-buffered no-block-buffered byte-offset no-byte-offset
      case-sensitive color= colors= column no-column context-separator= no-context-separator count count-matches crlf no-crlf debug
      trace dfa-size-limit= encoding= no-encoding engine= field-context-separator= field-match-separator= file= files files-with-matches
      files-without-match fixed-strings no-fixed-strings follow no-follow glob= glob-case-insensitive no-glob-case-insensitive heading
      no-heading hidden no-hidden iglob= ignore-case ignore-file= ignore-file-case-insensitive no-ignore-file-case-insensitive
      include-zero no-include-zero invert-match no-invert-match json no-json line-buffered no-line-buffered line-number no-line-number
      line-regexp max-columns= max-columns-preview no-max-columns-preview max-count= max-depth= maxdepth= max-filesize= mmap no-mmap
      multiline no-multiline multiline-dotall no-multiline-dotall no-config no-filename with-filename no-ignore ignore no-ignore-dot
      ignore-dot no-ignore-exclude ignore-exclude no-ignore-files ignore-files no-ignore-global ignore-global no-ignore-messages
      ignore-messages no-ignore-parent ignore-parent no-ignore-vcs ignore-vcs no-messages messages no-pcre2-unicode pcre2-unicode
      no-require-git require-git no-unicode unicode null null-data one-file-system no-one-file-system only-matching passthru
      passthrough path-separator= pcre2 no-pcre2 pcre2-version quiet regex-size-limit= regexp= replace= smart-case sort= sortr= stats
      no-stats text no-text threads= trim no-trim type= type-add= type-clear= type-list type-not= unrestricted vimgrep word-regexp
      auto-hybrid-regex no-auto-hybrid-regex hyperlink-format= generate= files-sorted ${HV}`),
  },
  sort: {
    flags: 'bdfgiMhnRrVcCmsuz',
    req: 'kStT',
    long: L(`ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort
      numeric-sort random-sort random-source= reverse sort= version-sort batch-size= check=? merge key= stable buffer-size=
      field-separator= temporary-directory= unique zero-terminated parallel= debug ${HV}`),
  },
  uniq: {
    flags: 'cdDiuz',
    req: 'fsw',
    numeric: true,
    long: L(`count repeated all-repeated=? skip-fields= skip-chars= ignore-case unique zero-terminated check-chars= group=? ${HV}`),
  },
  cut: {
    flags: 'nszw',
    req: 'bcdf',
    long: L(`bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated ${HV}`),
  },
  tr: { flags: 'cCdst', long: L(`complement delete squeeze-repeats truncate-set1 ${HV}`) },
  diff: {
    flags: 'iEZbwBaptTrNPsqyuecndH',
    req: 'CUFIDSLxXW',
    opt: '',
    long: L(`normal brief report-identical-files context=? unified=? ed rcs side-by-side width= left-column suppress-common-lines
      show-c-function show-function-line= label= expand-tabs initial-tab tabsize= suppress-blank-empty recursive no-dereference
      new-file unidirectional-new-file ignore-file-name-case no-ignore-file-name-case exclude= exclude-from= starting-file= from-file=
      to-file= ignore-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines
      ignore-matching-lines= text strip-trailing-cr minimal horizon-lines= speed-large-files color=? palette= old-line-format=
      new-line-format= unchanged-line-format= line-format= old-group-format= new-group-format= unchanged-group-format=
      changed-group-format= ifdef= ${HV}`),
  },
  which: { flags: 'as', long: L(`all skip-alias skip-functions ${HV}`) },
  type: { flags: 'afptP' },
  basename: { flags: 'az', req: 's', long: L(`multiple suffix= zero ${HV}`) },
  dirname: { flags: 'z', long: L(`zero ${HV}`) },
  nl: {
    flags: 'p',
    req: 'bdfhilnsvw',
    long: L(
      `body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width= ${HV}`,
    ),
  },
  tac: { flags: 'br', req: 's', long: L(`before regex separator= ${HV}`) },
  cmp: { flags: 'blsz', req: 'in', long: L(`print-bytes ignore-initial= verbose bytes= quiet silent ${HV}`) },
  comm: { flags: '123z', long: L(`check-order nocheck-order output-delimiter= total zero-terminated ${HV}`) },
  du: {
    flags: 'a0bcDHhkLlmPSsx',
    req: 'BdtX',
    long: L(`all apparent-size block-size= bytes total dereference-args human-readable inodes dereference count-links max-depth= null
      no-dereference separate-dirs si summarize threshold= time=? time-style= exclude-from= exclude= one-file-system ${HV}`),
  },
  sed: {
    flags: 'nrEsuz',
    req: 'efl',
    opt: 'i',
    danger: ['-i', '--in-place', '-f', '--file'],
    long: L(
      `quiet silent expression= file= in-place=? line-length= null-data zero-terminated regexp-extended separate sandbox unbuffered posix debug follow-symlinks binary ${HV}`,
    ),
  },
  cd: { flags: 'LPe@', posix: true },
  printenv: { flags: '0', long: L(`null ${HV}`) },
  md5sum: { flags: 'btz', long: L(`binary tag text zero ${HV}`) },
  sha1sum: { flags: 'btz', long: L(`binary tag text zero ${HV}`) },
  sha256sum: { flags: 'btz', long: L(`binary tag text zero ${HV}`) },
  sha512sum: { flags: 'btz', long: L(`binary tag text zero ${HV}`) },
  realpath: {
    flags: 'eEmLPqsz',
    long: L(`canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero relative-to= relative-base= ${HV}`),
  },
  readlink: {
    flags: 'fenmqsvz',
    long: L(`canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero ${HV}`),
  },
  column: {
    flags: 'txeJnLrR',
    req: 'csoNWHTdl',
    long: L(
      `table separator= output-separator= output-width= columns= fillrows json table-columns= table-right= table-wrap= table-hide= table-name= table-noextreme= table-noheadings table-order= keep-empty-lines ${HV}`,
    ),
  },
  // awk: -F separator, -v assignment; no -f (a program file the policy cannot read), no gawk extensions.
  awk: { flags: '', req: 'Fv', posix: true },
  // jq reading files: output formatting only; no -f/-L (program or modules from files), no --rawfile/--slurpfile.
  jq: {
    flags: 'rjacnsCMSe',
    long: L(
      `raw-output join-output ascii-output compact-output null-input slurp color-output monochrome-output sort-keys exit-status tab indent= ${HV}`,
    ),
  },
  uname: {
    flags: 'asnrvmpio',
    long: L(`all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system ${HV}`),
  },
  // date: printing only; -s/--set and -f/--file are left out, and operands must be +FORMAT (safe-list.ts).
  date: { flags: 'uR', opt: 'I', req: 'd', long: L(`utc universal rfc-email iso-8601=? rfc-3339= date= ${HV}`) },
  mkdir: { flags: 'pv', long: L(`parents verbose ${HV}`) },
  git: {
    // Short options of git's read-only subcommands (their union: all letters read, format or select), plus -<n>.
    // -o: ls-files --others, grep --only-matching (format-patch -o, which writes, is refused in arg-checks.ts).
    // -u takes an optional attached mode (status -uall, -uno; ls-files -u reads no value).
    flags: 'abcdefhiklmnopqrstvwxzABDEFGHIKLMNPRSTVWXZ0123456789',
    opt: 'CMBUu',
    req: 'SGO',
    numeric: true,
    long: GIT_LONG,
  },
};

/** Commands whose arguments are all operands (no options to misread): echo and friends print, test compares. */
export const OPERANDS_ONLY: ReadonlySet<string> = new Set(['echo', 'printf', 'true', 'false', 'test', '[', 'env']);
