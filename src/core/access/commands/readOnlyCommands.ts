/**
 * The commands that run without asking in ask and autoEdit modes although no allowlist entry names
 * them, as VS Code's `chat.tools.terminal.autoApprove` defaults do (`cat`, `grep`, `git status`…).
 * A name here is only where the judging starts: the command still runs unasked only when the
 * judge finds it writes nothing by an option and runs nothing in its place (`sort -o f`,
 * `rg --pre cmd`, `find -exec`, `xxd -r a b` are judged as the writers and runners they are, see
 * disguisedEffects.ts), every path it names is in the workspace, and it is called by its bare name
 * (`./cat` is a workspace file, not cat). Redirections into files are writes, judged as edits.
 *
 * Left out on purpose: pagers (`less`, `more`, `man`: LESSOPEN, `!cmd`, `-P`), searchers that read
 * a config from the project (`ack`'s `.ackrc` can set `--pager`), `ps` (it prints other processes'
 * environments with `e`), `env` (a wrapper), `hostname` and `date -s` style setters, `yes`.
 */

/** Each group with why it is safe; the union is what runs unasked. */
export const READ_ONLY_GROUPS: readonly { why: string; names: readonly string[] }[] = [
  {
    why: "They print the files they are given, or a digest of them, and open nothing for writing (xxd's output file and sort -o are judged as writes).",
    names: [
      'cat',
      'head',
      'tail',
      'nl',
      'tac',
      'rev',
      'wc',
      'cut',
      'tr',
      'fold',
      'column',
      'paste',
      'join',
      'comm',
      'cmp',
      'diff',
      'uniq',
      'sort',
      'strings',
      'od',
      'hexdump',
      'xxd',
      'base64',
      'md5sum',
      'sha1sum',
      'sha256sum',
      'sha512sum',
      'cksum',
      'expand',
    ],
  },
  {
    why: 'They search and print matches; the options that run a program (rg --pre, find -exec) or write (find -fprint, -delete) are judged as such.',
    names: ['grep', 'egrep', 'fgrep', 'rg', 'find'],
  },
  {
    why: 'They describe files, paths and command names without opening them for writing (tree -o and file -C are judged as writes; `command name` runs name, which is judged instead).',
    names: ['ls', 'tree', 'stat', 'file', 'du', 'df', 'pwd', 'basename', 'dirname', 'realpath', 'readlink', 'which', 'type', 'command'],
  },
  {
    why: 'They print values: their own arguments, numbers, dates, JSON (jq cannot write files or run programs; printf -v and test -v are judged for array subscripts bash evaluates).',
    names: ['echo', 'printf', 'true', 'false', 'test', '[', 'expr', 'seq', 'numfmt', 'date', 'sleep', 'jq'],
  },
  {
    why: "They print facts about the machine and the user; commands' environment has the product's keys taken out.",
    names: ['uname', 'whoami', 'id', 'nproc', 'printenv'],
  },
];

export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set(READ_ONLY_GROUPS.flatMap((g) => g.names));

/**
 * git subcommands that only read the repository. git reads the repository's config, and a config
 * can make these run programs (`diff.external`, a textconv or clean filter, `gpg.program` for
 * `log.showSignature`; fsmonitor and hooks are turned off for unasked commands, the rest cannot
 * be from the environment), so they run unasked only inside the OS sandbox, which holds whatever
 * git starts. `branch` reads only in its listing forms (see readOnlyMatch.ts).
 */
export const READ_ONLY_GIT_VERBS: ReadonlySet<string> = new Set([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'rev-list',
  'shortlog',
  'describe',
  'merge-base',
  'branch',
]);

/**
 * git's own options before the subcommand that change nothing but how it reads; any other
 * (`-c`, `-C`, `--git-dir`, `--work-tree`, `--exec-path`, `--config-env`) makes it not read-only.
 */
export const READ_ONLY_GIT_GLOBALS: ReadonlySet<string> = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--no-replace-objects',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
]);

/** Commands none of whose words is a file they open (`echo /api`, `tr / .`): no word of theirs is judged as a path. */
export const NO_PATH_WORDS: ReadonlySet<string> = new Set(['echo', 'printf', 'tr', 'expr', 'seq', 'numfmt', 'true', 'false', 'sleep']);

/** Commands whose first operand is a pattern or a program, not a file, unless a pattern is given by option. */
export const PATTERN_FIRST: Readonly<Record<string, readonly string[]>> = {
  grep: ['-e', '--regexp', '-f', '--file'],
  egrep: ['-e', '--regexp', '-f', '--file'],
  fgrep: ['-e', '--regexp', '-f', '--file'],
  rg: ['-e', '--regexp', '-f', '--file'],
  jq: ['-f', '--from-file'],
};
