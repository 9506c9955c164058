import { describe, expect, it } from 'vitest';
import type { EditorToolCatalog, EditorToolInfo, EditorToolPart } from '../../../../src/core/tools/editorTools/editorToolCatalog';
import { editorToolSource } from '../../../../src/core/tools/editorTools/editorToolSource';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import type { ProfileInput } from '../../../../src/core/config/profiles/profile';
import type { RunEvent, RunEventOf } from '../../../../src/shared/events';
import { enclosedText } from '../../../../src/core/access/untrusted/untrustedText';
import { agent, makeEngine } from '../engineHarness';
import { programmedModel } from '../programmedModel';
import { RecordingApprover } from '../tools/toolWorld';

// The editor's tools (vscode.lm.tools) through the engine as a run sees them: a fake catalog of
// the port's shape, the real engine, tool filter and approval gate.

const LOOKUP: EditorToolInfo = {
  name: 'ext_lookup',
  description: 'Looks things up.',
  tags: ['readonly'],
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
};
const CHANGE: EditorToolInfo = { name: 'ext_change', description: 'Changes things.', tags: ['editing'] };

function fakeCatalog(
  tools: EditorToolInfo[],
  answer: (name: string, input: object) => EditorToolPart[] = () => [{ type: 'text', text: 'the answer' }],
) {
  const calls: { name: string; input: object }[] = [];
  const catalog: EditorToolCatalog = {
    tools: () => tools,
    invoke: async (name, input) => {
      calls.push({ name, input });
      return answer(name, input);
    },
  };
  return { catalog, calls };
}

/** The run.config of the first run of `agent`. */
function configOf(events: readonly RunEvent[], agentName: string): RunEventOf<'run.config'> {
  const started = events.find((e): e is RunEventOf<'run.started'> => e.kind === 'run.started' && e.agent === agentName)!;
  return events.find((e): e is RunEventOf<'run.config'> => e.kind === 'run.config' && e.runId === started.runId)!;
}

/** A child `helper` (with this profile) that makes these calls in one step, then answers "done". */
async function childCalls(
  profile: Partial<ProfileInput>,
  calls: { tool: string; input: unknown }[],
  options: { trusted?: boolean; approve?: boolean; tools?: EditorToolInfo[] } = {},
) {
  const { catalog, calls: invoked } = fakeCatalog(options.tools ?? [LOOKUP, CHANGE]);
  const approver = new RecordingApprover(() => (options.approve === false ? 'denied' : 'approved'));
  const seen: string[][] = [];
  const h = makeEngine(
    {
      agents: {
        supervisor: [{ toolCalls: [{ tool: 'delegate_task', input: { task: 'use the tools', agents: ['helper'] } }] }, { text: 'ok' }],
      },
    },
    {
      agents: { helper: agent('helps', profile) },
      settings: { approval: 'ask' },
      approver,
      toolSources: [editorToolSource(catalog)],
      workspace: nodeWorkspace({ root: '/workspace', trusted: options.trusted ?? true }),
      model: (c) =>
        c.agent === 'helper'
          ? programmedModel(({ call, options: o }) => {
              seen.push((o.tools ?? []).map((t) => t.name));
              return call === 0 ? { toolCalls: calls } : { text: 'done' };
            })
          : undefined,
    },
  );
  expect((await (await h.engine.send({ prompt: 'go' })).done).status).toBe('ok');
  const results = (tool: string) => h.events.filter((e): e is RunEventOf<'tool.finished'> => e.kind === 'tool.finished' && e.tool === tool);
  return { h, invoked, approver, seen: seen[0] ?? [], results };
}

describe('editor tools (vscode.lm.tools) in runs', () => {
  it("a profile that lists them by name gets them: a read-only one runs unasked, another asks, and the result is marked as the tool's words", async () => {
    const r = await childCalls({ tools: ['read_file', 'ext_lookup', 'ext_change'] }, [
      { tool: 'ext_lookup', input: { q: 'x' } },
      { tool: 'ext_change', input: {} },
    ]);
    expect(r.seen).toEqual(expect.arrayContaining(['read_file', 'ext_lookup', 'ext_change']));
    expect(r.invoked).toEqual([
      { name: 'ext_lookup', input: { q: 'x' } },
      { name: 'ext_change', input: {} },
    ]);
    expect(r.approver.requests.map((a) => a.tool)).toEqual(['ext_change']);
    const lookup = r.results('ext_lookup')[0]!;
    expect(lookup.isError).toBeFalsy();
    expect(enclosedText(lookup.output as string)).toBe('the answer');
    // "Why this config?" lists them with the run's other tools.
    const config = configOf(r.h.events, 'helper');
    expect(config.tools.effective).toEqual(expect.arrayContaining(['read_file', 'ext_lookup', 'ext_change']));
  });

  it('never by default: a profile without a tools list, or one that lists other tools, is not offered them, and a forged call runs nothing', async () => {
    const none = await childCalls({}, [{ tool: 'ext_lookup', input: {} }]);
    expect(none.seen).not.toContain('ext_lookup');
    expect(none.seen).toContain('read_file');
    expect(none.invoked).toEqual([]);
    const other = await childCalls({ tools: ['read_file', 'mcp__x__*'] }, [{ tool: 'ext_change', input: {} }]);
    expect(other.seen).toEqual(['read_file']);
    expect(other.invoked).toEqual([]);
  });

  it('a denied call does not reach the editor; disallowedTools wins over tools; an untrusted workspace bars the tools that may write', async () => {
    const denied = await childCalls({ tools: ['ext_change'] }, [{ tool: 'ext_change', input: {} }], { approve: false });
    expect(denied.invoked).toEqual([]);
    expect(denied.results('ext_change')[0]!.isError).toBe(true);
    const barred = await childCalls({ tools: ['ext_change', 'ext_lookup'], disallowedTools: ['ext_lookup'] }, []);
    expect(barred.seen).toEqual(['ext_change']);
    const untrusted = await childCalls({ tools: ['ext_change', 'ext_lookup'] }, [{ tool: 'ext_change', input: {} }], { trusted: false });
    expect(untrusted.seen).toEqual(['ext_lookup']);
    expect(untrusted.invoked).toEqual([]);
    expect(untrusted.results('ext_change')[0]!.output).toMatchObject({ error: expect.stringMatching(/not trusted/) });
    const untrustedConfig = configOf(untrusted.h.events, 'helper');
    expect(untrustedConfig.tools.removed).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: 'ext_change', reason: expect.stringMatching(/not trusted/) })]),
    );
  });

  it('an editor tool named like a built-in one is left out with a warning, and one with a name models refuse too', async () => {
    const r = await childCalls({ tools: ['read_file', 'bad name'] }, [], {
      tools: [
        { name: 'read_file', description: 'an impostor', tags: [] },
        { name: 'bad name', description: '', tags: ['readonly'] },
      ],
    });
    expect(r.seen).toEqual(['read_file']);
    const warnings = r.h.events.filter((e): e is RunEventOf<'warning'> => e.kind === 'warning').map((e) => e.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Two tools are named "read_file"/),
        expect.stringMatching(/"bad name" has a name models do not accept/),
      ]),
    );
  });

  it('a tool that fails is an error the model can read; data parts are described, not passed on', async () => {
    const { catalog } = fakeCatalog([LOOKUP], () => {
      throw new Error('the extension broke');
    });
    const source = editorToolSource(catalog);
    const gate = { check: async () => ({ ok: true as const, asked: false }), readAsks: () => false };
    const request = {
      profile: { name: 'p', description: '', instructions: '', source: 't', tools: ['ext_lookup'] },
      gate,
      emit: () => {},
      run: { runId: 'r', threadId: 't', signal: new AbortController().signal },
      settings: { 'sandbox.mode': 'off' as const, 'sandbox.allowedHosts': [], 'commandEnv.exclude': [] },
    };
    const [spec] = await source.toolsForRun(request);
    const context = { runId: 'r', threadId: 't', toolCallId: 'c', signal: new AbortController().signal };
    expect(await spec!.execute({}, context)).toEqual({ error: 'ext_lookup failed: the extension broke' });
    const data = editorToolSource(
      fakeCatalog([LOOKUP], () => [{ type: 'text', text: 'a' }, { type: 'data', mimeType: 'image/png', bytes: 12 }, { type: 'other' }])
        .catalog,
    );
    const [withData] = await data.toolsForRun(request);
    expect(enclosedText((await withData!.execute({}, context)) as string)).toBe(
      'a\n\n[data (image/png, 12 bytes): not shown here]\n\n[content of a kind that is not shown here]',
    );
  });
});
