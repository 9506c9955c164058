import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeCommand } from '../../../../src/core/access/commands/judgeCommand';
import { READ_ONLY_COMMANDS, READ_ONLY_GIT_VERBS } from '../../../../src/core/access/commands/readOnlyCommands';

/**
 * Issue 39 item 4: read-only helpers run unasked in ask and autoEdit, git's read-only verbs only
 * in the OS sandbox; writes by redirection or option stay writes. Issue 40 items 2 and 7: each way
 * to make a read-only (or allowed) command write or run a program is a case of this table.
 */

let root = '';
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'subagents-readonly-')));
  await writeFile(join(root, 'README.md'), 'hello\n');
  await writeFile(join(root, '.env'), 'TOKEN=1\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

type Mode = 'ask' | 'autoEdit' | 'trust';
interface Case {
  line: string;
  mode?: Mode;
  allow?: string[];
  /** Whether it runs in the OS sandbox; default true. */
  sandboxed?: boolean;
  /** `runs`: no question; a RegExp: asks, for this reason. */
  expect: 'runs' | RegExp;
}

async function check(c: Case) {
  const verdict = await judgeCommand(c.line, {
    mode: c.mode ?? 'autoEdit',
    root,
    autoApprove: c.allow ?? [],
    sandboxed: c.sandboxed ?? true,
  });
  if (c.expect === 'runs') expect(verdict, `${c.line} (${c.mode ?? 'autoEdit'})`).toEqual({ ask: false });
  else {
    expect(verdict.ask, `${c.line} (${c.mode ?? 'autoEdit'})`).toBe(true);
    if (verdict.ask) expect(verdict.reason, c.line).toMatch(c.expect);
  }
}

function table(cases: Case[]) {
  for (const c of cases)
    it(`${c.line} [${c.mode ?? 'autoEdit'}${c.sandboxed === false ? ', no sandbox' : ''}${c.allow ? `, allow ${c.allow.join(', ')}` : ''}]`, () =>
      check(c));
}

describe('read-only helpers run unasked (issue 39 item 4)', () => {
  table([
    { line: 'npx vitest run 2>&1 | tail -n 40', allow: ['npx vitest'], expect: 'runs' },
    { line: 'npx vitest run 2>&1 | tail -n 40', allow: ['npx vitest'], sandboxed: false, expect: 'runs' },
    { line: 'git diff', expect: 'runs' },
    { line: 'git status', mode: 'ask', expect: 'runs' },
    { line: 'git log --oneline -5', expect: 'runs' },
    { line: 'git --no-pager show HEAD --stat', expect: 'runs' },
    { line: 'git branch -a', expect: 'runs' },
    { line: 'git branch --list "fix/*"', expect: 'runs' },
    { line: 'wc -l README.md | head', expect: 'runs' },
    { line: 'wc -l README.md | head', mode: 'ask', sandboxed: false, expect: 'runs' },
    { line: 'cat README.md | grep -n hello | sort | uniq -c', mode: 'ask', expect: 'runs' },
    { line: 'ls -la && pwd && echo done', mode: 'ask', expect: 'runs' },
    { line: 'rg -n hello . ; find . -name "*.md"', mode: 'ask', expect: 'runs' },
    { line: 'timeout 5 tail -n 3 README.md', mode: 'ask', expect: 'runs' },
    { line: 'command -v npx || type node', mode: 'ask', expect: 'runs' },
    { line: 'command rm README.md', expect: /`rm` .*is not among/ },
    { line: '[[ -f README.md ]] && head -c 100 README.md', mode: 'ask', expect: 'runs' },
    { line: 'echo $((1 + 2)); for ((i = 0; i < 3; i++)); do echo $i; done', mode: 'trust', sandboxed: false, expect: 'runs' },
    // A pattern or a printed word is not a file: "/api/" is no path outside the workspace.
    { line: 'grep -rn "/api/" . | head -n 20', expect: 'runs' },
    { line: 'rg -n -A 3 "/v1/users" .', expect: 'runs' },
    { line: 'echo /etc/passwd | tr / .', expect: 'runs' },
    { line: 'grep -e /api/ /etc/passwd', expect: /outside the workspace/ },
    { line: 'grep root /etc/passwd', expect: /outside the workspace/ },
    { line: 'grep -f /etc/patterns .', expect: /outside the workspace/ },
    { line: 'grep -rf/etc/passwd /home', expect: /outside the workspace/ },
    { line: 'rg -ie x /etc', expect: /outside the workspace/ },
  ]);
});

describe('what is not read-only still asks, and says which part and how to allow it (issue 39 item 5)', () => {
  table([
    {
      line: 'npx vitest run 2>&1 | tail -n 40',
      expect: /`npx vitest` \(in `npx vitest run 2>&1`\) is not among the commands allowed without asking.*subagents\.autoApproveCommands/,
    },
    { line: 'git status', sandboxed: false, expect: /`git status` is not among the commands allowed without asking/ },
    { line: 'git push', expect: /`git push` is not among/ },
    { line: 'git st', expect: /`git st` is not among/ },
    { line: 'git branch topic', expect: /is not among/ },
    { line: 'git branch -D main', expect: /is not among/ },
    { line: 'less README.md', expect: /`less` \(in `less README.md`\) is not among/ },
    { line: 'ps e', expect: /is not among/ },
    { line: 'cat /etc/passwd', expect: /outside the workspace/ },
    { line: 'git diff --name-only | xargs wc -l', expect: /`wc` \(in `xargs wc -l`\) is not among/ },
  ]);

  it('names the CLI flag when the host says so', async () => {
    const verdict = await judgeCommand('ls | tail -n 3', {
      mode: 'autoEdit',
      root,
      autoApprove: [],
      allowHint: (p) => `run with --allow-command ${p}`,
    });
    expect(verdict).toEqual({ ask: false });
    const refused = await judgeCommand('npm run build | tail', {
      mode: 'autoEdit',
      root,
      autoApprove: [],
      allowHint: (p) => `run with --allow-command '${p}'`,
    });
    expect(refused).toMatchObject({ reason: expect.stringMatching(/`npm run` .*to allow it, run with --allow-command 'npm run'/) });
    expect(refused).not.toMatchObject({ reason: expect.stringMatching(/subagents\.autoApproveCommands/) });
  });
});

describe('writes by redirection or option stay writes', () => {
  table([
    { line: 'git diff > out.txt', mode: 'ask', expect: /writes its output to a file/ },
    { line: 'git diff > out.txt', expect: 'runs' },
    { line: 'git diff --output=out.txt', mode: 'ask', expect: /writes out\.txt/ },
    { line: 'git log --output=.git/config', mode: 'trust', expect: /protected/ },
    { line: 'sort -o out.txt README.md', mode: 'ask', expect: /writes out\.txt/ },
    { line: 'sort --out=.vscode/settings.json README.md', mode: 'trust', expect: /protected/ },
    { line: 'cat README.md > .vscode/settings.json', mode: 'trust', expect: /protected/ },
    { line: 'tree -o .vscode/settings.json', mode: 'trust', expect: /protected/ },
    { line: 'xxd -r dump .git/hooks/pre-commit', mode: 'trust', expect: /protected/ },
    { line: 'xxd README.md out.hex', mode: 'ask', expect: /writes out\.hex/ },
    { line: 'uniq README.md .git/config', mode: 'trust', expect: /protected/ },
    { line: 'find . -fprint .git/config', mode: 'trust', expect: /protected/ },
    { line: 'time -o .vscode/settings.json ls', mode: 'trust', expect: /protected/ },
    { line: '/usr/bin/time --output=.git/config ls', mode: 'trust', expect: /protected/ },
    { line: 'time -o out.txt ls', mode: 'ask', expect: /writes out\.txt/ },
    { line: 'cp --target=.vscode README.md', mode: 'trust', expect: /protected/ },
  ]);
});

describe('writers and runners in disguise (issue 40 item 2)', () => {
  table([
    // Environment assignments through env, as before a command.
    { line: 'env X=1 rm README.md', allow: ['rm'], expect: /changes X in the environment/ },
    { line: 'env LD_PRELOAD=./evil.so cat README.md', expect: /changes LD_PRELOAD/ },
    { line: 'env GIT_EXTERNAL_DIFF=./evil git diff', expect: /changes GIT_EXTERNAL_DIFF/ },
    { line: 'env -u GIT_CONFIG_COUNT git status', expect: /changes GIT_CONFIG_COUNT/ },
    { line: 'env -i git status', expect: /the whole environment/ },
    { line: "env -S 'rm README.md'", expect: /`rm` .*is not among/ },
    { line: "env -S 'echo x > .git/config'", mode: 'trust', expect: /protected/ },
    { line: 'env -C /tmp ls', mode: 'trust', sandboxed: false, expect: /env -C/ },
    // Preprocessors and helper programs of search and sort tools.
    { line: 'rg --pre ./evil.sh hello', expect: /--pre/ },
    { line: 'rg --pre=./evil.sh --pre-glob "*.md" hello', mode: 'trust', sandboxed: false, expect: /--pre/ },
    { line: 'rg --hostname-bin=./evil.sh hello', mode: 'trust', sandboxed: false, expect: /--hostname-bin/ },
    { line: 'sort --compress-program=./evil.sh -S 1 README.md', mode: 'trust', sandboxed: false, expect: /compress-program/ },
    { line: 'sort --compress=./evil.sh README.md', expect: /compress-program/ },
    { line: 'find . -exec ./evil.sh {} \\;', expect: /known only when it runs|is not among/ },
    { line: 'find . -execdir cat {} +', expect: /is not among|known only when it runs/ },
    { line: 'find . -ok rm {} \\;', mode: 'ask', expect: /known only when it runs|is not among/ },
    { line: 'find . -delete', mode: 'trust', sandboxed: false, expect: /find -delete/ },
    { line: 'tar --to-command=./evil.sh -xf a.tar', mode: 'trust', sandboxed: false, expect: /runs a program/ },
    { line: 'tar --to-c=./evil.sh -tf a.tar', mode: 'trust', sandboxed: false, expect: /runs a program/ },
    { line: 'tar -I ./evil.sh -tf a.tar', mode: 'trust', sandboxed: false, expect: /runs a program/ },
    { line: 'tar --use-compress=./evil.sh -tf a.tar', mode: 'trust', sandboxed: false, expect: /runs a program/ },
    { line: 'man -P ./evil.sh ls', expect: /is not among/ },
    { line: 'man -P ./evil.sh ls', allow: ['man'], sandboxed: false, expect: /pager or browser/ },
    { line: 'man --html=./evil.sh ls', allow: ['man'], sandboxed: false, expect: /pager or browser/ },
    { line: 'LESSOPEN="|./evil.sh %s" less README.md', allow: ['less'], expect: /sets LESSOPEN/ },
    { line: 'env LESSOPEN="|./evil.sh %s" less README.md', allow: ['less'], expect: /changes LESSOPEN/ },
    { line: 'awk \'BEGIN { system("id") }\'', mode: 'trust', sandboxed: false, expect: /awk program/ },
    { line: "awk -l ./evil '{ print }' README.md", allow: ['awk'], sandboxed: false, expect: /extension library/ },
    { line: 'awk \'@load "./evil"; { print }\' README.md', allow: ['awk'], sandboxed: false, expect: /awk program/ },
    { line: 'awk -E prog.awk README.md', allow: ['awk'], sandboxed: false, expect: /program from a file/ },
    { line: 'tree -R -H . .', expect: /tree -R/ },
    { line: 'date -s 2020-01-01', mode: 'trust', sandboxed: false, expect: /system clock/ },
    { line: 'date --set=2020-01-01', expect: /system clock/ },
    { line: 'file -C -m magic', expect: /compiled magic/ },
    // git's configuration and programs given on its command line.
    { line: 'git -c core.pager=./evil.sh log', expect: /configuration or a program/ },
    { line: 'git --config-env=core.pager=EVIL log', expect: /configuration or a program/ },
    { line: 'git --exec-path=./evil status', expect: /configuration or a program/ },
    { line: 'git --git-dir=other status', expect: /is not among/ },
    { line: 'git --work-tree=.. status', expect: /is not among|outside/ },
    { line: 'git -C sub status', expect: /git -C/ },
    { line: 'git diff --ext-diff', expect: /given a program/ },
    { line: 'git log -p --ext-diff', expect: /given a program/ },
    { line: 'git grep -O./evil.sh hello', expect: /given a program/ },
    { line: 'git grep --open-files-in-pager=./evil.sh hello', expect: /given a program/ },
    { line: 'git grep --open=./evil.sh hello', expect: /given a program/ },
    // The command itself must be the system's: a path is a program of its own.
    { line: './cat README.md', expect: /is not among/ },
    { line: 'bin/git status', expect: /is not among/ },
    { line: './nice npm test', allow: ['npm test'], expect: /is not among/ },
    { line: 'hash -p ./evil.sh cat; cat README.md', expect: /`hash` .*is not among/ },
    { line: 'cat() { rm -f README.md; }; cat README.md', expect: /`rm` .*is not among/ },
    { line: 'cat <(rm README.md)', expect: /`rm` .*is not among/ },
    { line: 'sudo cat README.md', expect: /is not among/ },
    // Secrets stay behind a question, however they are read.
    { line: 'cat .env', mode: 'trust', expect: /protected path/ },
    { line: 'tail -n 1 .e*', expect: /protected path/ },
    { line: 'git show HEAD:.env', expect: /protected path/ },
    { line: 'git show HEAD:config/.env.local | head', expect: /protected path/ },
    { line: 'diff <(cat .env) README.md', expect: /protected path/ },
    { line: 'grep -r token ~', expect: /outside the workspace/ },
    { line: 'cat /proc/self/environ', expect: /outside the workspace/ },
    { line: 'strings /proc/$PPID/environ', expect: /\$PPID|outside/ },
    { line: 'head -c 100 /dev/zero', expect: /outside the workspace/ },
    { line: 'git blame --contents=/etc/passwd README.md', expect: /outside the workspace/ },
    { line: 'git show --output=/tmp/x', expect: /outside the workspace/ },
    // Reads the line does not name (issue 40 item 7): input redirections, walks through links, names from a file.
    { line: 'cat < .env', mode: 'trust', expect: /reads a protected path/ },
    { line: 'wc -l < /etc/passwd', expect: /reads \/etc\/passwd, outside the workspace/ },
    { line: 'cat < $F', expect: /known only when it runs|uses \$F/ },
    { line: 'grep -R token .', expect: /follows symbolic links/ },
    { line: 'rg --follow token', expect: /follows symbolic links/ },
    { line: 'find -L . -name "*.md"', expect: /follows symbolic links/ },
    { line: 'ls -LR', expect: /follows symbolic links/ },
    { line: 'diff -r a b', expect: /diff -r follows symbolic links/ },
    { line: 'diff -r --no-dereference a b', expect: 'runs' },
    { line: 'sort --files0-from=list', expect: /reads the names of the files/ },
    { line: 'file -f list', expect: /reads the names of the files/ },
    // A flag that takes a value in another git subcommand no longer swallows the program option.
    { line: 'git grep -F -O./evil.sh hello', expect: /given a program/ },
    { line: 'git log -c --ext-diff', expect: /given a program/ },
    // Builtins reached through wrappers are judged as themselves.
    { line: "builtin printf -v 'a[$(touch marker)]' x", mode: 'trust', sandboxed: false, expect: /array subscript/ },
    { line: "command test -v 'a[$(touch marker)]'", mode: 'trust', sandboxed: false, expect: /array subscript/ },
    { line: 'shopt -s expand_aliases; alias ls="rm -f README.md"; ls', expect: /is not among/ },
    { line: 'PATH=. cat README.md', expect: /sets PATH/ },
    { line: 'git branch --edit-description', expect: /is not among/ },
  ]);
});

describe('files named by options: sort -T writes there, grep and rg read there (issue 40, round two)', () => {
  table([
    // sort puts its temporary files in -T's folder: a write there, outside the workspace or into .git.
    { line: 'sort -T /tmp/x README.md', mode: 'trust', sandboxed: false, expect: /writes to \/tmp\/x, outside the workspace/ },
    { line: 'sort -T/tmp/x README.md', mode: 'trust', sandboxed: false, expect: /writes to \/tmp\/x, outside the workspace/ },
    { line: 'sort -nT /tmp/x README.md', mode: 'trust', sandboxed: false, expect: /writes to \/tmp\/x, outside the workspace/ },
    { line: 'sort --temporary-directory=/tmp/x README.md', mode: 'trust', sandboxed: false, expect: /writes to \/tmp\/x/ },
    { line: 'sort --temp=/tmp/x README.md', mode: 'trust', sandboxed: false, expect: /writes to \/tmp\/x/ },
    { line: 'sort -T .git README.md', mode: 'trust', expect: /writes to a protected file: \.git/ },
    // In the sandbox a write outside cannot happen; inside the workspace it is an ordinary write.
    { line: 'sort -T /tmp/x README.md', mode: 'trust', expect: 'runs' },
    { line: 'sort -T tmp README.md', expect: 'runs' },
    // The file of rg --ignore-file, and the pattern files of rg and grep (-f, --file, grep --exclude-from): reads of that path.
    { line: 'rg --ignore-file /etc/passwd x', expect: /reads \/etc\/passwd, outside the workspace/ },
    { line: 'rg --ignore-file /etc/passwd x', sandboxed: false, expect: /reads \/etc\/passwd, outside the workspace/ },
    { line: 'rg --ignore-file .env x', mode: 'trust', sandboxed: false, expect: /reads a protected path: \.env/ },
    { line: 'rg --ignore-file=.env x', mode: 'trust', expect: /reads a protected path: \.env/ },
    { line: 'rg --ignore-file $F x', expect: /\$F/ },
    { line: 'rg --ignore-file ignore.txt x', expect: 'runs' },
    { line: 'rg -f/etc/passwd .', expect: /reads \/etc\/passwd, outside the workspace/ },
    { line: 'rg -uuf.env .', mode: 'trust', expect: /reads a protected path: \.env/ },
    { line: 'rg --file=.env .', mode: 'trust', expect: /\.env may hold secrets/ },
    { line: 'grep -f.env README.md', mode: 'trust', sandboxed: false, expect: /reads a protected path: \.env/ },
    { line: 'grep -rf.env .', mode: 'trust', expect: /reads a protected path: \.env/ },
    { line: 'grep -f/etc/passwd README.md', expect: /reads \/etc\/passwd, outside the workspace/ },
    { line: 'grep --exclude-from /etc/passwd x .', expect: /reads \/etc\/passwd, outside the workspace/ },
    { line: 'grep --exclude-fr /etc/passwd x .', expect: /reads \/etc\/passwd, outside the workspace/ },
    { line: 'grep --exclude-from .env x .', mode: 'trust', expect: /reads a protected path: \.env/ },
    { line: 'grep -f - README.md', expect: 'runs' },
    // --pre-glob only narrows --pre: alone it runs nothing (--pre itself asks, above).
    { line: 'rg --pre-glob "*.md" x', sandboxed: false, expect: 'runs' },
  ]);
});

describe('code bash runs from arithmetic and array subscripts (issue 40 item 2)', () => {
  // Each of these runs `touch marker` in bash 5 (checked by hand: see arithmeticCode.ts).
  table([
    { line: "[[ 1 -eq 'a[$(touch marker)]' ]]", mode: 'trust', sandboxed: false, expect: /arithmetic/ },
    { line: "[[ -v 'a[$(touch marker)]' ]]", mode: 'trust', sandboxed: false, expect: /arithmetic/ },
    { line: '[[ $(cat README.md) -eq 1 ]] && echo one', mode: 'trust', sandboxed: false, expect: /arithmetic.*command's output/ },
    { line: '[[ $(cat README.md) -eq 1 ]] && echo one', expect: /arithmetic/ },
    { line: 'echo $(( $(cat README.md) + 1 ))', mode: 'trust', sandboxed: false, expect: /arithmetic/ },
    { line: "echo $(( 'a[$(touch marker)]' ))", mode: 'trust', sandboxed: false, expect: /arithmetic|cannot be judged/ },
    { line: "x='a[$(touch marker)]'; echo $((x))", mode: 'trust', sandboxed: false, expect: /arithmetic.*variable set on this line/ },
    { line: 'read x < README.md; (( x > 1 )) && echo big', mode: 'trust', sandboxed: false, expect: /arithmetic/ },
    { line: 'echo "${a[\'$(touch marker)\']}"', mode: 'trust', sandboxed: false, expect: /arithmetic/ },
    { line: "printf -v 'a[$(touch marker)]' x", mode: 'trust', sandboxed: false, expect: /array subscript/ },
    { line: "test -v 'a[$(touch marker)]'", mode: 'trust', sandboxed: false, expect: /array subscript/ },
    { line: "[ -v 'a[$(touch marker)]' ]", mode: 'trust', sandboxed: false, expect: /array subscript/ },
    { line: "read 'a[$(touch marker)]' < README.md", mode: 'trust', sandboxed: false, expect: /array subscript/ },
    { line: "declare 'a[$(touch marker)]=1'", mode: 'trust', sandboxed: false, expect: /array subscript/ },
    { line: "let 'a[$(touch marker)]'", mode: 'trust', sandboxed: false, expect: /let evaluates/ },
    { line: 'echo $[ $(cat README.md) ]', mode: 'trust', sandboxed: false, expect: /arithmetic/ },
    { line: 'declare -i x; x=$(cat README.md)', mode: 'trust', sandboxed: false, expect: /integer variables/ },
    { line: 'f() { local -i n=$(cat README.md); }; f', mode: 'trust', sandboxed: false, expect: /integer variables/ },
    { line: 'x=$(cat README.md); a=(1 2); echo ${a[x]}', mode: 'trust', sandboxed: false, expect: /arithmetic/ },
    { line: 'declare x=1; export Y=2', mode: 'trust', sandboxed: false, expect: 'runs' },
    { line: "printf -v 'a[$(touch marker)]' x", expect: /array subscript/ },
    { line: "printf '%s\\n' 'a[$(not run)]'", mode: 'ask', expect: 'runs' },
  ]);
});

describe('the list', () => {
  it('holds no wrapper, interpreter, pager or program that runs others', () => {
    for (const name of [
      'env',
      'xargs',
      'sudo',
      'bash',
      'sh',
      'node',
      'python3',
      'awk',
      'sed',
      'less',
      'more',
      'man',
      'ack',
      'ag',
      'ps',
      'git',
      'npx',
      'make',
      'watch',
    ]) {
      expect(READ_ONLY_COMMANDS.has(name), name).toBe(false);
    }
    for (const verb of ['commit', 'push', 'checkout', 'reset', 'config', 'submodule', 'fetch', 'pull', 'clone', 'stash', 'am', 'apply']) {
      expect(READ_ONLY_GIT_VERBS.has(verb), verb).toBe(false);
    }
  });
});
