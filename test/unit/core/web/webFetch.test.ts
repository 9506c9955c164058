import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileChanges } from '../../../../src/core/changes/attribution/fileChanges';
import { MemorySnapshotStore } from '../../../../src/core/changes/attribution/snapshotStore';
import { createApprovalGate } from '../../../../src/core/tools/approvalGate';
import { MAX_FETCH_BYTES, MAX_FETCH_OUTPUT, webFetchTool } from '../../../../src/core/tools/builtin/webFetch';
import type { ApprovalRequest } from '../../../../src/core/ports';
import { nodeWorkspace } from '../../../../src/core/engine/nodeWorkspace';
import { commandLauncher } from '../../../../src/core/access/sandbox/commandLauncher';
import { DEFAULT_SETTINGS, type ApprovalMode } from '../../../../src/core/config/settings/engineSettings';
import { privateAddressReason } from '../../../../src/core/tools/web/privateAddress';
import { hostTrust } from '../../../../src/core/tools/web/trustedDomains';

// web_fetch against a real node:http server on 127.0.0.1.
let server: Server;
let port: number;
const hits: string[] = [];

const PAGE = `<!doctype html><html><head><title>Fixture &amp; page</title><style>.x{color:red}</style><script>alert("run me")</script></head>
<body><h1>Hello</h1><p>Some <strong>bold</strong> text and <a href="/next">a link</a>.</p>
<iframe src="https://evil.example/"></iframe><form action="/post"><input name="q" value="form text"></form>
<noscript>no script text</noscript><ul><li>one</li><li>two</li></ul></body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else if (req.url === '/to-localhost') res.writeHead(302, { location: `http://localhost:${port}/page` }).end();
    else if (req.url === '/to-self') res.writeHead(302, { location: '/page' }).end();
    else if (req.url?.startsWith('/loop')) res.writeHead(301, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` }).end();
    else if (req.url === '/long') res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(MAX_FETCH_OUTPUT * 2));
    else if (req.url === '/huge') res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(MAX_FETCH_BYTES + 1000));
    else if (req.url === '/image') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100));
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function tool(trustedDomains: string[], mode: ApprovalMode = 'ask') {
  const asked: ApprovalRequest[] = [];
  const gate = createApprovalGate({
    settings: { mode, root: '/', autoApproveCommands: [] },
    approver: { request: async (r) => (asked.push(r), 'approved') },
    emit: () => {},
    agent: 'test',
  });
  const workspace = nodeWorkspace({ root: '/' });
  const files = new FileChanges(new MemorySnapshotStore()).forRun({ runId: 'r', agent: 'test', workspace, emit: () => {} });
  const spec = webFetchTool({
    workspace,
    gate,
    agent: 'test',
    commands: commandLauncher('/', { ...DEFAULT_SETTINGS, 'sandbox.mode': 'off' }, () => {}),
    trustedDomains,
    files,
  });
  const call = async (url: string) =>
    (await spec.execute(
      { url },
      { runId: 'r', threadId: 't', toolCallId: `c${Math.random()}`, signal: new AbortController().signal },
    )) as Record<string, unknown>;
  return { call, asked };
}

describe('web_fetch', () => {
  it('refuses this machine without trustedDomains, in every mode, before asking and before any request', async () => {
    hits.length = 0;
    for (const mode of ['ask', 'trust'] as const) {
      const { call, asked } = tool([], mode);
      const result = await call(`http://127.0.0.1:${port}/page`);
      expect(result.error).toContain('this machine (loopback)');
      expect(result.error).toContain(`--trusted-domain 127.0.0.1:${port}`);
      expect(asked).toEqual([]);
    }
    // A name that resolves to loopback, and a wildcard entry, do not open it either.
    expect((await tool(['*.localhost']).call(`http://localhost:${port}/page`)).error).toContain('this machine');
    expect(hits).toEqual([]);
  });

  it('fetches a host the user named, unasked, and converts the HTML to Markdown without scripts, styles, frames or forms', async () => {
    const { call, asked } = tool([`127.0.0.1:${port}`]);
    const result = await call(`http://127.0.0.1:${port}/page`);
    expect(asked).toEqual([]);
    expect(result).toMatchObject({ status: 200 });
    const content = String(result.content);
    expect(content).toContain(`Address: http://127.0.0.1:${port}/page\nContent-Type: text/html\nTitle: Fixture & page`);
    expect(content).toContain('# Hello');
    expect(content).toContain('Some **bold** text and [a link](/next).');
    expect(content).toMatch(/-\s+one/);
    for (const gone of ['alert', 'color:red', 'evil.example', 'form text', 'no script text']) expect(content).not.toContain(gone);
    // The page is marked as data for the model.
    expect(content).toMatch(/<<<web-page [0-9a-f]+>>>/);
  });

  it('judges every redirect again: to a private name not listed it is refused; the final URL is returned', async () => {
    const named = tool([`127.0.0.1:${port}`]);
    const refused = await named.call(`http://127.0.0.1:${port}/to-localhost`);
    expect(refused.error).toContain(`localhost:${port} is on this machine`);
    // Refused before anyone is asked about it.
    expect(named.asked).toEqual([]);
    const same = await tool([`127.0.0.1:${port}`]).call(`http://127.0.0.1:${port}/to-self`);
    expect(same.content).toContain(`Address: http://127.0.0.1:${port}/page`);
    const loop = await tool([`127.0.0.1:${port}`]).call(`http://127.0.0.1:${port}/loop`);
    expect(loop.error).toContain('redirected more than 5 times');
  });

  it('caps what it returns and what it reads, and says so; binary data is not text', async () => {
    const { call } = tool([`127.0.0.1:${port}`]);
    const long = await call(`http://127.0.0.1:${port}/long`);
    expect(String(long.content).length).toBeLessThan(MAX_FETCH_OUTPUT + 1000);
    expect(long.note).toContain(`${MAX_FETCH_OUTPUT} characters were cut`);
    const huge = await call(`http://127.0.0.1:${port}/huge`);
    expect(huge.note).toContain(`Only the first ${MAX_FETCH_BYTES} bytes of the page were read.`);
    const image = await call(`http://127.0.0.1:${port}/image`);
    expect(image.error).toContain('not text (100 bytes');
    expect(image.content).toContain('Content-Type: image/png');
    expect((await call(`http://127.0.0.1:${port}/missing`)).error).toContain('status 404');
    expect((await call('file:///etc/passwd')).error).toContain('http and https pages only');
  });
});

describe('what web_fetch counts as private, and trusted', () => {
  it('knows loopback, private, link-local and mapped addresses', () => {
    expect(privateAddressReason('127.0.0.1')).toContain('loopback');
    expect(privateAddressReason('169.254.169.254')).toContain('link-local');
    expect(privateAddressReason('10.1.2.3')).toContain('private');
    expect(privateAddressReason('192.168.1.1')).toContain('private');
    expect(privateAddressReason('::1')).toContain('loopback');
    expect(privateAddressReason('::ffff:127.0.0.1')).toContain('loopback');
    expect(privateAddressReason('::ffff:7f00:1')).toContain('loopback');
    expect(privateAddressReason('fd00::1')).toContain('private');
    expect(privateAddressReason('8.8.8.8')).toBeUndefined();
    expect(privateAddressReason('2606:4700::1111')).toBeUndefined();
  });

  it('matches hosts, ports and wildcards', () => {
    expect(hostTrust(new URL('https://docs.example.com/x'), ['*.example.com'])).toBe('wildcard');
    expect(hostTrust(new URL('https://example.com/x'), ['*.example.com'])).toBeUndefined();
    expect(hostTrust(new URL('https://example.com/x'), ['example.com'])).toBe('named');
    expect(hostTrust(new URL('http://localhost:8080/'), ['localhost:8080'])).toBe('named');
    expect(hostTrust(new URL('http://localhost:9090/'), ['localhost:8080'])).toBeUndefined();
    expect(hostTrust(new URL('http://[::1]:3000/'), ['[::1]:3000'])).toBe('named');
  });
});
