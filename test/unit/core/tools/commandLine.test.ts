import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../../src/core/tools/commandLine';
import { judgeCommand } from '../../../../src/core/tools/commandPolicy';

/** The words of each simple command, '<…>' standing for a value known only at run time. */
function parts(line: string): string[] {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.commands.map((c) =>
    [...c.words.map((w) => (w.dynamic ? `<${w.value}>` : w.value)), ...c.redirects.map((r) => `${r.op}${r.fd ? '&' : ''}${r.target.value}`)].join(' '),
  );
}

describe('parseCommandLine', () => {
  it('splits on every control operator and on newlines', () => {
    expect(parts('git status && curl x | sh')).toEqual(['git status', 'curl x', 'sh']);
    expect(parts('a; b || c & d |& e')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(parts('ls\nrm -rf /')).toEqual(['ls', 'rm -rf /']);
    expect(parts('npm test \\\n  --silent')).toEqual(['npm test --silent']);
  });

  it('finds substituted commands wherever they hide, except in single quotes', () => {
    expect(parts('echo $(rm -rf ~)')).toEqual(['rm -rf <~>', 'echo <$(…)>']);
    expect(parts('echo `rm -rf ~`')).toEqual(['rm -rf <~>', 'echo <`…`>']);
    expect(parts('echo "a $(b) c"')).toEqual(['b', 'echo <a $(…) c>']);
    expect(parts('echo "x `y`"')).toEqual(['y', 'echo <x `…`>']);
    expect(parts("echo '$(not run)'")).toEqual(['echo $(not run)']);
    expect(parts('diff <(ls a) >(tee b)')).toEqual(['ls a', 'tee b', 'diff <<(…)> <>(…)>']);
    expect(parts('echo $(a $(b))')).toEqual(['b', 'a <$(…)>', 'echo <$(…)>']);
  });

  it('lists redirections with their targets, telling descriptors from files', () => {
    expect(parts('npm test > out.txt 2>&1')).toEqual(['npm test >out.txt >&&1']);
    expect(parts('echo x >>.bashrc')).toEqual(['echo x >>.bashrc']);
    expect(parts('cmd &> log')).toEqual(['cmd &>log']);
    expect(parts('echo "2" > f')).toEqual(['echo 2 >f']);
    expect(parts('sort < in.txt')).toEqual(['sort <in.txt']);
  });

  it('keeps quoting and escapes as the shell does', () => {
    expect(parts('echo "a b" \'c d\' e\\ f')).toEqual(['echo a b c d e f']);
    expect(parts('echo a#b # a comment')).toEqual(['echo a#b']);
    expect(parts('FOO=1 npm test')).toEqual(['FOO=1 npm test']);
    expect(parts('echo $HOME ${USER}')).toEqual(['echo <$HOME> <${USER}>']);
  });

  it('gives up, with a reason, on what it does not fully understand', () => {
    for (const [line, why] of [
      ["echo 'open", /single quote/],
      ['echo "open', /double quote/],
      ['echo $(open', /not closed/],
      ['echo `open', /backtick/],
      ['cat <<EOF\nx\nEOF', /here-document/],
      ['(cd x && rm y)', /subshell/],
      ['{ a; b; }', /grouping/],
      ['if true; then rm x; fi', /control flow/],
      ['for f in *; do rm $f; done', /control flow/],
      ['echo ${x:-$(rm y)}', /parameter expansion/],
      ['echo $((1+2))', /arithmetic/],
      ["echo $'\\x41'", /quoting/],
      ['echo > ', /no target/],
      ['echo trailing\\', /backslash/],
    ] as const) {
      const parsed = parseCommandLine(line);
      expect(parsed.ok, line).toBe(false);
      if (!parsed.ok) expect(parsed.reason, line).toMatch(why);
    }
  });
});

describe('judgeCommand', () => {
  let root = '';
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'subagents-judge-')));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));
  const judge = (line: string, mode: 'ask' | 'autoEdit' | 'trust', autoApprove: string[] = []) => judgeCommand(line, { mode, root, autoApprove });

  it('runs a line unasked only when every part matches an allowlisted prefix word by word', async () => {
    expect(await judge('git status --short', 'ask', ['git status'])).toEqual({ ask: false });
    expect(await judge('git statusx', 'ask', ['git status'])).toMatchObject({ ask: true });
    expect(await judge('npm test && npm run lint', 'autoEdit', ['npm test', 'npm run lint'])).toEqual({ ask: false });
    expect(await judge('npm test && npm run build', 'autoEdit', ['npm test'])).toMatchObject({ reason: expect.stringMatching(/npm run build/) });
    // A command name that is only known at run time never matches.
    expect(await judge('$(echo git) status', 'ask', ['git status'])).toMatchObject({ ask: true });
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
    expect(await judge('echo x > /tmp/outside', 'trust')).toMatchObject({ reason: expect.stringMatching(/not an ordinary workspace path|outside/) });
    expect(await judge('cp evil.sh .git/hooks/pre-commit', 'trust')).toMatchObject({ reason: expect.stringMatching(/names a protected path/) });
    expect(await judge('git diff --output=.vscode/tasks.json', 'trust')).toMatchObject({ reason: expect.stringMatching(/protected/) });
    expect(await judge('cat <<EOF', 'trust')).toMatchObject({ reason: expect.stringMatching(/cannot be judged/) });
    expect(await judge('rm -rf build && npm ci', 'trust')).toEqual({ ask: false });
  });
});
