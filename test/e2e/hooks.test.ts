import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, textReply, toolCallReply, type ChatServer, type RecordedRequest, type Reply } from '../unit/fakes/openAiServer';
import { CodeServer, REPO_ROOT } from './codeServer';
import { lastAnswer, prompt, sendButton } from './panelDom';
import { Workbench } from './workbench';

// Issue 45 in a real VS Code: the repository's hooks (.claude/settings.json, Claude Code's format)
// run only once the user agreed in the editor's prompt, which lists the command and its file. "Not
// now" runs the request without them and the notice on the answer names the hook and how to be
// asked again; "Ask Again About Repository Hooks" then "Allow" runs the hook (a real script that
// logs the JSON it was given on stdin) on the next request, and the run shows on the answer. A
// prompt file (.github/prompts/review.prompt.md) is a slash command of the panel's prompt box:
// completed from `/rev`, sent with its `$ARGUMENTS` filled in.

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'control-workspace');
const HOOK_COMMAND = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/log-stdin.mjs"';
/**
 * The hook's script: appends each stdin it is given, one JSON per line, to hook-log.jsonl at the
 * workspace's root (a repository hook runs in the OS sandbox, where .claude is read-only).
 */
const LOG_STDIN = `import { appendFileSync, readFileSync } from 'node:fs';
const input = readFileSync(0, 'utf8');
appendFileSync(new URL('../../hook-log.jsonl', import.meta.url), JSON.stringify(JSON.parse(input)) + '\\n');
`;
const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The supervisor reads src/x.ts, then answers; each turn the same way. */
function reply(request: RecordedRequest): Reply {
  const last = request.body.messages?.at(-1);
  if (last?.role === 'tool') return textReply(['I read src/x.ts: ', 'it adds two numbers.']);
  return toolCallReply(`call_${Math.random().toString(36).slice(2, 8)}`, 'read_file', [JSON.stringify({ path: 'src/x.ts' })]);
}

/** The text of a request's last user message (what the turn sent). */
function lastUserText(request: RecordedRequest): string {
  const user = request.body.messages?.filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

describe("the repository's hooks and prompt files in a real VS Code (issue 45)", () => {
  let models: ChatServer | undefined;
  let fixture: string | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;

  beforeAll(async () => {
    models = await startChatServer();
    models.replies = Array.from({ length: 40 }, () => reply);
    fixture = mkdtempSync(join(tmpdir(), 'subagents-hooks-fixture-'));
    cpSync(FIXTURE, fixture, { recursive: true });
    mkdirSync(join(fixture, 'src'), { recursive: true });
    writeFileSync(join(fixture, 'src', 'x.ts'), 'export const add = (a: number, b: number): number => a + b;\n');
    mkdirSync(join(fixture, '.claude', 'hooks'), { recursive: true });
    writeFileSync(join(fixture, '.claude', 'hooks', 'log-stdin.mjs'), LOG_STDIN);
    chmodSync(join(fixture, '.claude', 'hooks', 'log-stdin.mjs'), 0o755);
    writeFileSync(
      join(fixture, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Read|Bash', hooks: [{ type: 'command', command: HOOK_COMMAND, timeout: 30 }] }] },
      }),
    );
    mkdirSync(join(fixture, '.github', 'prompts'), { recursive: true });
    writeFileSync(
      join(fixture, '.github', 'prompts', 'review.prompt.md'),
      '---\ndescription: Review one file for bugs\nargument-hint: a file path\n---\nReview $ARGUMENTS for bugs and say what you found.\n',
    );
    mkdirSync(join(fixture, '.vscode'), { recursive: true });
    writeFileSync(
      join(fixture, '.vscode', 'settings.json'),
      JSON.stringify({ 'subagents.model': `openai-compatible:${models.baseURL}#test-model` }, null, 2),
    );
    server = await CodeServer.start({ name: 'hooks', fixture });
    workbench = await Workbench.open(server);
  });

  afterAll(async () => {
    await workbench?.close();
    await server?.stop();
    await models?.close();
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  it('asks before the hooks run, "Not now" says they did not run, "Allow" runs the script with Claude Code\'s stdin; /review runs the prompt file', async () => {
    const wb = workbench!;
    const log = join(server!.workspace, 'hook-log.jsonl');
    const panel = await wb.step('open the Subagents view', () => wb.showPanel());
    const dialog = wb.page.locator('.monaco-dialog-box');

    await wb.step('send a prompt: the editor asks, listing the hook command and its file', async () => {
      await prompt(panel).click();
      await wb.page.keyboard.type('What does src/x.ts do?');
      await sendButton(panel).click();
      await dialog.waitFor({ timeout: 60_000 });
      const text = normalize(await dialog.innerText());
      expect(text).toContain('This workspace declares 1 hook');
      expect(text).toContain(`PreToolUse (Read|Bash): ${HOOK_COMMAND}`);
      expect(text).toContain('from .claude/settings.json');
    });

    await wb.step('"Not now": the turn runs without the hook, and its answer says which hook did not run and how to allow it', async () => {
      await wb.dialogButton('Not now').click();
      const answer = lastAnswer(panel, 'ok');
      await answer.waitFor({ timeout: 60_000 });
      const notice = normalize(await answer.locator('.message-warnings').innerText());
      expect(notice).toContain(`1 hook from this repository did not run (.claude/settings.json): PreToolUse "${HOOK_COMMAND}"`);
      expect(notice).toContain('Subagents: Ask Again About Repository Hooks');
      expect(await answer.locator('.hook-runs').isHidden()).toBe(true);
      expect(existsSync(log)).toBe(false);
    });

    await wb.step('"Ask Again About Repository Hooks", then "Allow"', async () => {
      await wb.runCommand('Subagents: Ask Again About Repository Hooks');
      await dialog.waitFor({ timeout: 15_000 });
      await wb.dialogButton('Allow').click();
      await wb.notification("The repository's hooks run from the next request on").waitFor({ timeout: 15_000 });
    });

    await wb.step(
      'send again: the hook runs before read_file with the JSON Claude Code sends, and the run shows on the answer',
      async () => {
        await prompt(panel).click();
        await wb.page.keyboard.type('And now?');
        await sendButton(panel).click();
        const answer = panel.locator('.message.assistant[data-state="ok"]').nth(1);
        await answer.waitFor({ timeout: 60_000 });
        expect(await dialog.count()).toBe(0);
        const entries = readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          hook_event_name: 'PreToolUse',
          tool_name: 'Read',
          cwd: server!.workspace,
          tool_input: { file_path: join(server!.workspace, 'src', 'x.ts') },
        });
        expect(typeof entries[0]!.session_id).toBe('string');
        const runs = answer.locator('.hook-runs');
        expect(normalize(await runs.locator('.hook-runs-summary').innerText())).toBe('1 hook ran');
        const row = runs.locator('.hook-run').first();
        expect(await row.getAttribute('data-event')).toBe('PreToolUse');
        expect(await row.getAttribute('data-exit')).toBe('0');
        expect(await row.locator('.hook-run-command').textContent()).toBe(HOOK_COMMAND);
        expect(await answer.locator('.run-warning', { hasText: 'did not run' }).count()).toBe(0);
      },
    );

    await wb.step('type /rev: the prompt box offers /review; Tab completes it', async () => {
      await prompt(panel).click();
      await wb.page.keyboard.type('/rev');
      const list = panel.locator('#prompt-completions');
      await expect.poll(() => list.locator('.completion-label').allInnerTexts(), { timeout: 15_000 }).toEqual(['/review']);
      await wb.page.keyboard.press('Tab');
      expect(await prompt(panel).inputValue()).toBe('/review ');
    });

    await wb.step('send /review src/x.ts: the model gets the prompt file with $ARGUMENTS filled in', async () => {
      const before = models!.requests.length;
      await wb.page.keyboard.type('src/x.ts');
      await wb.page.keyboard.press('Enter');
      await panel.locator('.message.assistant[data-state="ok"]').nth(2).waitFor({ timeout: 60_000 });
      const sent = models!.requests.slice(before).map(lastUserText);
      expect(sent[0]).toBe('Review src/x.ts for bugs and say what you found.');
      const shown = normalize(await panel.locator('.message.user').nth(2).innerText());
      expect(shown).toContain('Review src/x.ts for bugs and say what you found.');
      // The hook ran for this turn's read too, unasked (the answer is remembered).
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
    });
  });
});
