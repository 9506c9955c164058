import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommandLine } from '../../../../src/core/access/commands/analyzeCommandLine';
import type { Arg } from '../../../../src/core/access/commands/args';
import { judgeCommand } from '../../../../src/core/access/commands/judgeCommand';

/**
 * The cases of the hand-written splitter this judge replaced (issue 4), now on tree-sitter's bash
 * grammar: every command a line runs is found, words are expanded as bash would, and what cannot
 * be parsed is refused with a reason. Lines that splitter gave up on (subshells, control flow,
 * here-documents) are now understood, and their commands are listed.
 */

const HOME = '/home/u';
let root = '';
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'subagents-judge-')));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const word = (a: Arg) => ('value' in a ? a.value : `<${a.unknown}>`);

/** Each command as its words (unknown ones in <…>), then its redirections as op+target. */
async function parts(line: string): Promise<string[]> {
  const analysis = await analyzeCommandLine(line, { known: [{ logical: root, physical: root }] }, HOME);
  if (!analysis.ok) throw new Error(analysis.reason);
  return analysis.commands.map(({ facts }) =>
    [
      ...facts.assignments,
      ...facts.argv.map(word),
      ...facts.redirects.map((r) => `${r.op}${word(r.target)}${r.writes ? '' : '(no file)'}`),
    ].join(' '),
  );
}

async function argvs(line: string): Promise<string[][]> {
  const analysis = await analyzeCommandLine(line, { known: [{ logical: root, physical: root }] }, HOME);
  if (!analysis.ok) throw new Error(analysis.reason);
  return analysis.commands.map(({ facts }) => facts.argv.map(word));
}

describe('analyzeCommandLine', () => {
  it('splits on every control operator and on newlines', async () => {
    expect(await parts('git status && curl x | sh')).toEqual(['git status', 'curl x', 'sh']);
    expect(await parts('a; b || c & d |& e')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await parts('ls\nrm -rf /')).toEqual(['ls', 'rm -rf /']);
    expect(await parts('npm test \\\n  --silent')).toEqual(['npm test --silent']);
  });

  it('finds substituted commands wherever they hide, except in single quotes', async () => {
    expect(await parts('echo $(rm -rf ~)')).toEqual([`rm -rf ${HOME}`, 'echo <$(rm -rf ~)>']);
    expect(await parts('echo `rm -rf ~`')).toEqual([`rm -rf ${HOME}`, 'echo <`rm -rf ~`>']);
    expect(await parts('echo "a $(b) c"')).toEqual(['b', 'echo <a $(b) c>']);
    expect(await parts('echo "x `y`"')).toEqual(['y', 'echo <x `y`>']);
    expect(await parts("echo '$(not run)'")).toEqual(['echo $(not run)']);
    expect(await parts('diff <(ls a) >(tee b)')).toEqual(['ls a', 'tee b', 'diff <<(ls a)> <>(tee b)>']);
    expect(await parts('echo $(a $(b))')).toEqual(['b', 'a <$(b)>', 'echo <$(a $(b))>']);
    expect(await parts('echo ${x:-$(rm y)}')).toEqual(['rm y', 'echo <${x:-$(rm y)}>']);
    expect(await parts('cat <<EOF > x\nhi $(rm y)\nEOF')).toEqual(['rm y', 'cat >x']);
  });

  it('lists redirections with their targets, telling descriptors and devices from files', async () => {
    expect(await parts('npm test > out.txt 2>&1')).toEqual(['npm test >out.txt >&1(no file)']);
    expect(await parts('echo x >>.bashrc')).toEqual(['echo x >>.bashrc']);
    expect(await parts('cmd &> log')).toEqual(['cmd &>log']);
    expect(await parts('echo "2" > f')).toEqual(['echo 2 >f']);
    expect(await parts('sort < in.txt')).toEqual(['sort <in.txt(no file)']);
    expect(await parts('npm test 2>/dev/null')).toEqual(['npm test >/dev/null(no file)']);
    // tree-sitter hangs `x` on the redirection; bash passes it to echo.
    expect(await parts('echo > f x')).toEqual(['echo x >f']);
    // …and `a && b > f`'s redirection on the list; in bash it is b's.
    expect(await parts('a && b > f')).toEqual(['a', 'b >f']);
  });

  it('keeps quoting and escapes as the shell does', async () => {
    expect(await argvs('echo "a b" \'c d\' e\\ f')).toEqual([['echo', 'a b', 'c d', 'e f']]);
    expect(await parts('echo a#b # a comment')).toEqual(['echo a#b']);
    expect(await parts('FOO=1 npm test')).toEqual(['FOO=1 npm test']);
    expect(await parts('echo $HOME ${USER}')).toEqual(['echo <$HOME> <${USER}>']);
    expect(await argvs('echo $\'\\x41\\n\' "$"')).toEqual([['echo', 'A\n', '$']]);
  });

  it('understands subshells, groups, control flow and here-documents, and lists their commands', async () => {
    expect(await parts('(cd x && rm y)')).toEqual(['cd x', 'rm y']);
    expect(await parts('{ a; b; }')).toEqual(['a', 'b']);
    expect(await parts('if true; then rm x; fi')).toEqual(['true', 'rm x']);
    expect(await parts('for f in *; do rm $f; done')).toEqual(['rm <$f>']);
    expect(await parts('while read l; do echo $l; done > out')).toEqual(['>out', 'read l', 'echo <$l>']);
    expect(await parts('echo $((1+2))')).toEqual(['echo <$((1+2))>']);
    expect(await parts('f() { rm x; }; f')).toEqual(['rm x', 'f']);
  });

  it('gives up, with a reason, on a line with a syntax error', async () => {
    for (const [line, why] of [
      ["echo 'open", /syntax error/],
      ['echo "open', /syntax error/],
      ['echo $(open', /syntax error/],
      ['echo `open', /syntax error/],
      ['cat <<EOF', /here-document/],
      ['echo > ', /syntax error/],
      ['echo trailing\\', /syntax error/],
    ] as const) {
      const analysis = await analyzeCommandLine(line, { known: [{ logical: root, physical: root }] }, HOME);
      expect(analysis.ok, line).toBe(false);
      if (!analysis.ok) expect(analysis.reason, line).toMatch(why);
    }
  });
});

describe('static expansion before judging', () => {
  beforeAll(async () => {
    await mkdir(join(root, '.vscode'));
    await writeFile(join(root, '.vscode', 'settings.json'), '{}');
    await writeFile(join(root, 'a.txt'), '');
    await writeFile(join(root, 'b.txt'), '');
  });

  it('expands braces, sequences and tilde; quoted braces stay', async () => {
    expect(await argvs('echo {.vscode/settings.json,}')).toEqual([['echo', '.vscode/settings.json']]);
    expect(await argvs('echo f{1..3} x{a,b{c,d}}y')).toEqual([['echo', 'f1', 'f2', 'f3', 'xay', 'xbcy', 'xbdy']]);
    expect(await argvs("echo '{a,b}' \\{a,b} {a} {}")).toEqual([['echo', '{a,b}', '{a,b}', '{a}', '{}']]);
    expect(await argvs('echo ~ ~/x "~" a=~/b ~other')).toEqual([['echo', HOME, `${HOME}/x`, '~', `a=${HOME}/b`, '<~other>']]);
  });

  it('matches globs against the real files, leaving an unmatched one as written', async () => {
    expect(await argvs('cp x .vs*/settings.json')).toEqual([['cp', 'x', '.vscode/settings.json']]);
    expect(await argvs('ls *.txt nothing*.md "*.txt"')).toEqual([['ls', 'a.txt', 'b.txt', 'nothing*.md', '*.txt']]);
    // Without a leading dot in the pattern, dotfiles do not match, as in bash.
    expect(await argvs('ls *vscode')).toEqual([['ls', '*vscode']]);
  });

  it('resolves a path as the kernel does: the symlink first, then its ..', async () => {
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'subagents-outside-')));
    await mkdir(join(outside, 'inner'));
    await symlink(join(outside, 'inner'), join(root, 'outlink'));
    const { physicalPath } = await import('../../../../src/core/access/commands/physicalPath');
    expect(await physicalPath(root, 'outlink/../f')).toBe(join(outside, 'f'));
    expect(await physicalPath(root, 'outlink/new/../g')).toBe(join(outside, 'inner', 'g'));
    expect(await physicalPath(root, 'missing/../h')).toBe(join(root, 'h'));
    await rm(outside, { recursive: true, force: true });
  });

  it('follows cd for the commands after it, but not out of a subshell', async () => {
    const analysis = await analyzeCommandLine(
      'cd /elsewhere && echo x > f; (cd /tmp); pwd',
      { known: [{ logical: root, physical: root }] },
      HOME,
    );
    if (!analysis.ok) throw new Error(analysis.reason);
    const folders = analysis.commands.map((c) => ('known' in c.facts.cwd ? c.facts.cwd.known.map((p) => p.logical) : ['?']));
    // /elsewhere does not exist: cd may fail, so echo may run in either folder.
    expect(folders).toEqual([[root], ['/elsewhere', root], ['/elsewhere', root], ['/elsewhere', root]]);
  });
});

describe('judgeCommand', () => {
  const judge = (line: string, mode: 'ask' | 'autoEdit' | 'trust', autoApprove: string[] = []) =>
    judgeCommand(line, { mode, root, autoApprove });

  it('runs a line unasked only when every part matches an allowlisted prefix word by word', async () => {
    expect(await judge('git status --short', 'ask', ['git status'])).toEqual({ ask: false });
    expect(await judge('git statusx', 'ask', ['git status'])).toMatchObject({ ask: true });
    expect(await judge('npm test && npm run lint', 'autoEdit', ['npm test', 'npm run lint'])).toEqual({ ask: false });
    expect(await judge('npm test && npm run build', 'autoEdit', ['npm test'])).toMatchObject({
      reason: expect.stringMatching(/npm run build/),
    });
    // A command name that is only known at run time never matches.
    expect(await judge('$(echo git) status', 'ask', ['git status'])).toMatchObject({ ask: true });
  });

  it('lets cd through on its own and judges the commands after it where it leads', async () => {
    expect(await judge('cd src && git status', 'ask', ['git status'])).toEqual({ ask: false });
    expect(await judge(`cd ${root}-other && git status`, 'ask', ['git status'])).toMatchObject({
      reason: expect.stringMatching(/outside the workspace/),
    });
    expect(await judge('cd $DIR && git status', 'ask', ['git status'])).toMatchObject({ ask: true });
  });

  it('asks in ask and autoEdit mode for words known only when they run', async () => {
    expect(await judge('cat $(cat list.txt)', 'ask', ['cat'])).toMatchObject({ reason: expect.stringMatching(/known only when it runs/) });
    expect(await judge('ls *.none', 'ask', ['ls'])).toEqual({ ask: false });
  });

  it('asks in ask and autoEdit mode for variables and paths outside the workspace', async () => {
    expect(await judge('cat $HOME/.ssh/id_rsa', 'ask', ['cat'])).toMatchObject({ reason: expect.stringMatching(/\$HOME/) });
    expect(await judge('cat ../../etc/passwd', 'ask', ['cat'])).toMatchObject({ reason: expect.stringMatching(/outside the workspace/) });
    expect(await judge(`cat ${root}-other/secret`, 'autoEdit', ['cat'])).toMatchObject({ reason: expect.stringMatching(/outside/) });
    expect(await judge('cat src/../README.md', 'ask', ['cat'])).toEqual({ ask: false });
  });

  it('treats a redirection into a file as an edit: asked in ask mode, not in autoEdit', async () => {
    expect(await judge('npm test > out.txt', 'ask', ['npm test'])).toMatchObject({ reason: expect.stringMatching(/writes its output/) });
    expect(await judge('npm test > out.txt 2>&1', 'autoEdit', ['npm test'])).toEqual({ ask: false });
    expect(await judge('npm test 2>/dev/null', 'ask', ['npm test'])).toEqual({ ask: false });
  });

  it('asks in every mode for protected targets and mentions, outside targets and unparsable lines', async () => {
    expect(await judge('echo x > .git/hooks/pre-commit', 'trust')).toMatchObject({ reason: expect.stringMatching(/protected/) });
    expect(await judge('echo x > /tmp/outside', 'trust')).toMatchObject({
      reason: expect.stringMatching(/not an ordinary workspace path|outside/),
    });
    expect(await judge('cp evil.sh .git/hooks/pre-commit', 'trust')).toMatchObject({
      reason: expect.stringMatching(/names a protected path/),
    });
    expect(await judge('git diff --output=.vscode/tasks.json', 'trust')).toMatchObject({ reason: expect.stringMatching(/protected/) });
    expect(await judge('cat <<EOF', 'trust')).toMatchObject({ reason: expect.stringMatching(/cannot be judged/) });
    expect(await judge('rm -rf build && npm ci', 'trust')).toEqual({ ask: false });
  });
});
