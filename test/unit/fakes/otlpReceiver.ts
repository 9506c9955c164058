import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * A real OTLP/HTTP collector on 127.0.0.1, as small as a test needs: it takes what an exporter
 * POSTs to /v1/traces in OTLP's JSON encoding (the official OTLP/HTTP exporter's), answers 200, and
 * keeps each span with its attributes as plain values. The raw bodies are kept to search for what
 * must never be sent.
 */

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** '' for a trace's root. */
  parentSpanId: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  events: { name: string; attributes: Record<string, unknown> }[];
  /** The resource's attributes (service.name…). */
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base URL (the exporter gets /v1/traces added). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request: its path, content type and body as text. */
  requests: { path: string; contentType: string; body: string }[];
  close(): Promise<void>;
}

interface JsonAttribute {
  key: string;
  value: JsonValue;
}
interface JsonValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: JsonValue[] };
}
interface JsonSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  attributes?: JsonAttribute[];
  status?: { code?: number; message?: string };
  events?: { name: string; attributes?: JsonAttribute[] }[];
}
interface JsonExport {
  resourceSpans?: { resource?: { attributes?: JsonAttribute[] }; scopeSpans?: { spans?: JsonSpan[] }[] }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      const contentType = req.headers['content-type'] ?? '';
      requests.push({ path: req.url ?? '', contentType, body });
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !contentType.includes('json')) {
        res.writeHead(400).end();
        return;
      }
      for (const rs of (JSON.parse(body) as JsonExport).resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              name: s.name,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
              events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
              resource,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function attributesOf(list: JsonAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

function valueOf(v: JsonValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
