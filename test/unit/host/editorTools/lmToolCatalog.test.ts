import { describe, expect, it } from 'vitest';
import { lmToolCatalog, type VscodeLmToolsApi } from '../../../../src/host/workspace/editorTools/lmToolCatalog';
import { Text } from '../../fakes/lmParts';

// vscode.lm.tools and vscode.lm.invokeTool as the engine's catalog, over fakes of their shape.

class TokenSource {
  static made: TokenSource[] = [];
  readonly token = { isCancellationRequested: false };
  disposed = false;
  constructor() {
    TokenSource.made.push(this);
  }
  cancel() {
    this.token.isCancellationRequested = true;
  }
  dispose() {
    this.disposed = true;
  }
}

function fakeApi(invoke: VscodeLmToolsApi['lm']['invokeTool']) {
  const api: VscodeLmToolsApi = {
    lm: {
      tools: [
        { name: 'ext_lookup', description: 'Looks up.', inputSchema: { type: 'object' }, tags: ['readonly'] },
        { name: 'subagents_delegate', description: 'Ours.', inputSchema: undefined, tags: [] },
      ],
      invokeTool: invoke,
    },
    LanguageModelTextPart: Text,
    CancellationTokenSource: TokenSource,
  };
  return api;
}

describe('lmToolCatalog', () => {
  it("lists the editor's tools but our own, and invokes one without a chat token, reading its parts", async () => {
    const calls: unknown[] = [];
    const catalog = lmToolCatalog(
      fakeApi(async (name, options) => {
        calls.push([name, options]);
        return { content: [new Text('found it'), { mimeType: 'image/png', data: new Uint8Array(5) }, { something: 1 }] };
      }),
    );
    expect(catalog.tools().map((t) => t.name)).toEqual(['ext_lookup']);
    expect(catalog.tools()[0]).toEqual({
      name: 'ext_lookup',
      description: 'Looks up.',
      inputSchema: { type: 'object' },
      tags: ['readonly'],
    });
    const parts = await catalog.invoke('ext_lookup', { q: 1 }, new AbortController().signal);
    expect(calls).toEqual([['ext_lookup', { input: { q: 1 }, toolInvocationToken: undefined }]]);
    expect(parts).toEqual([{ type: 'text', text: 'found it' }, { type: 'data', mimeType: 'image/png', bytes: 5 }, { type: 'other' }]);
  });

  it('an abort cancels the editor call through its token; the token source is disposed', async () => {
    TokenSource.made = [];
    let release = () => {};
    const catalog = lmToolCatalog(
      fakeApi((_name, _options, token) => {
        const t = token as TokenSource['token'];
        return new Promise((resolve, reject) => {
          release = () => (t.isCancellationRequested ? reject(new Error('Cancelled')) : resolve({ content: [] }));
        });
      }),
    );
    const controller = new AbortController();
    const call = catalog.invoke('ext_lookup', {}, controller.signal);
    controller.abort();
    release();
    await expect(call).rejects.toThrow('Cancelled');
    expect(TokenSource.made[0]!.token.isCancellationRequested).toBe(true);
    expect(TokenSource.made[0]!.disposed).toBe(true);
  });
});
