import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changePreview, MAX_PREVIEW_LINES } from '../../../../src/core/changes/preview/changePreview';
import { Redactor } from '../../../../src/core/access/secrets/redactor';
import { runEventSchema } from '../../../../src/shared/events';
import { makeEngine } from '../engineHarness';
import { makeWorld, RecordingApprover, runScript, spyWorkspace, supervisorCalls } from '../tools/toolWorld';

const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`).join('\n') + '\n';

describe('changePreview', () => {
  it('shows the changed lines with three lines of context under a hunk header, and counts them', () => {
    const before = numbered(20);
    const after = before.replace('line 10\n', 'line ten\nline ten and a half\n');
    const p = changePreview('src/a.ts', before, after);
    expect(p).toMatchObject({ path: 'src/a.ts', added: 2, removed: 1, omitted: 0 });
    expect(p.created).toBeUndefined();
    expect(p.lines.map((l) => `${l.kind} ${l.text}`)).toEqual([
      'hunk @@ -7,7 +7,8 @@',
      'same line 7',
      'same line 8',
      'same line 9',
      'del line 10',
      'add line ten',
      'add line ten and a half',
      'same line 11',
      'same line 12',
      'same line 13',
    ]);
  });

  it('a new file is its added lines, without a header', () => {
    const p = changePreview('new.txt', null, 'a\nb');
    expect(p).toMatchObject({ created: true, added: 2, removed: 0 });
    expect(p.lines).toEqual([
      { kind: 'add', text: 'a' },
      { kind: 'add', text: 'b' },
    ]);
  });

  it('carries only the first lines of a large diff, and says how many it left out; long lines are cut', () => {
    const p = changePreview('big.txt', '', numbered(500).replace('line 1\n', `${'x'.repeat(5000)}\n`));
    expect(p.lines).toHaveLength(MAX_PREVIEW_LINES);
    expect(p.omitted).toBe(500 - MAX_PREVIEW_LINES + 1); // the hunk header took one place
    expect(p.added).toBe(500);
    expect(Math.max(...p.lines.map((l) => l.text.length))).toBeLessThanOrEqual(300);
  });

  it('shows no content of a file that may hold secrets, or of binary content; the counts stay', () => {
    const env = changePreview('.env', 'A=1\n', 'A=1\nTOKEN=abc\n');
    expect(env.lines).toEqual([]);
    expect(env.hidden).toMatch(/may hold secrets/);
    expect(env).toMatchObject({ added: 1, removed: 0 });
    expect(JSON.stringify(env)).not.toContain('abc');
    const bin = changePreview('img.png', 'a\0b', 'a\0c');
    expect(bin.lines).toEqual([]);
    expect(bin.hidden).toBe('binary content');
  });

  it('is a valid part of an approval.requested event (its schema parses it back)', () => {
    const preview = changePreview('src/a.ts', 'a\n', 'b\n');
    const event = {
      v: 1,
      threadId: 't',
      runId: 'r',
      seq: 1,
      ts: 1,
      kind: 'approval.requested',
      approvalId: 'a',
      toolCallId: 'c',
      tool: 'edit_file',
      input: {},
      preview,
    };
    expect(runEventSchema.parse(event)).toEqual(event);
  });
});

describe("an edit's approval carries its diff", () => {
  let world: Awaited<ReturnType<typeof makeWorld>>;
  beforeEach(async () => {
    world = await makeWorld();
    await writeFile(join(world.root, 'invoice.ts'), numbered(12));
  });
  afterEach(() => world.cleanup());

  it('edit_file: on the event (first lines, counts) and, whole, on the request the host answers', async () => {
    const approver = new RecordingApprover(() => 'approved');
    const r = await runScript(
      supervisorCalls({ tool: 'edit_file', input: { path: 'invoice.ts', oldText: 'line 6\n', newText: 'line six\n' } }),
      {
        root: world.root,
        approver,
      },
    );
    const [requested] = r.ofKind('approval.requested');
    expect(requested?.preview).toMatchObject({ path: 'invoice.ts', added: 1, removed: 1 });
    expect(requested?.preview?.lines).toContainEqual({ kind: 'add', text: 'line six' });
    expect(approver.requests[0]?.change).toEqual({
      path: 'invoice.ts',
      before: numbered(12),
      after: numbered(12).replace('line 6\n', 'line six\n'),
    });
    expect(await readFile(join(world.root, 'invoice.ts'), 'utf8')).toContain('line six');
  });

  it('write_file over a file: the diff against what is there; a new file: created', async () => {
    const approver = new RecordingApprover(() => 'denied');
    // Read first: write_file refuses to replace a file the run has not seen.
    const script = {
      agents: {
        supervisor: [
          { toolCalls: [{ tool: 'read_file', input: { path: 'invoice.ts' } }] },
          {
            toolCalls: [
              { tool: 'write_file', input: { path: 'invoice.ts', content: numbered(12).replace('line 12', 'the end') } },
              { tool: 'write_file', input: { path: 'fresh.md', content: '# new\n' } },
            ],
          },
          { text: 'done' },
        ],
      },
    };
    const r = await runScript(script, { root: world.root, approver });
    const previews = r.ofKind('approval.requested').map((e) => e.preview);
    expect(previews).toContainEqual(expect.objectContaining({ path: 'invoice.ts', added: 1, removed: 1 }));
    expect(previews).toContainEqual(expect.objectContaining({ path: 'fresh.md', created: true, lines: [{ kind: 'add', text: '# new' }] }));
  });

  it('a command asks without a diff', async () => {
    const approver = new RecordingApprover(() => 'denied');
    const r = await runScript(supervisorCalls({ tool: 'run_command', input: { command: 'touch x' } }), { root: world.root, approver });
    expect(r.ofKind('approval.requested')[0]?.preview).toBeUndefined();
  });

  it("a known secret in the diff is redacted before the event is stored or shown; the host's whole sides are not events", async () => {
    const key = 'sk-test-0123456789abcdefghijkl';
    const approver = new RecordingApprover(() => 'denied');
    const h = makeEngine(supervisorCalls({ tool: 'write_file', input: { path: 'config.ts', content: `export const key = '${key}';\n` } }), {
      workspace: spyWorkspace(world.root).workspace,
      approver,
      redactor: Redactor.fromEnvironment({ OPENAI_API_KEY: key }),
    });
    const { threadId, done } = await h.engine.send({ prompt: 'go' });
    await done;
    await h.engine.whenQuiet(threadId);
    const requested = h.events.find((e) => e.kind === 'approval.requested');
    expect(requested?.kind === 'approval.requested' && requested.preview?.lines.length).toBeGreaterThan(0);
    const stored = JSON.stringify((await h.store.get(threadId))?.events);
    expect(JSON.stringify(h.events)).not.toContain(key);
    expect(stored).not.toContain(key);
  });
});
