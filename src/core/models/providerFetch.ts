import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/**
 * The fetch the vendors' clients call their providers with: Node's own http(s) requests, which
 * have no timeouts of their own. Node's global fetch (undici) gives up on a response whose headers
 * take 300 s (headersTimeout) or whose body pauses that long (bodyTimeout), whatever our
 * subagents.modelIdleTimeoutMs says, and a local model can think for minutes over a long prompt
 * before its first byte. Here the idle timeout (idleTimeoutModel.ts) is the one that counts, and a
 * cancel still ends the request at once through its signal. Requests go through node:http(s), so
 * an editor that sets a proxy on them (VS Code's http.proxy) still applies it. Redirects are not
 * followed: a model API answers where it is called.
 */
export async function providerFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`Cannot call a model at "${url.href}": only http and https URLs are supported.`);
  const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  // Any body fetch takes (the SDK sends JSON text), as bytes.
  const body = init.body == null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
  if (body) headers.set('content-length', String(body.length));
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const request = send(url, { method, headers: Object.fromEntries(headers), ...(signal ? { signal } : {}) }, (response) => {
      const status = response.statusCode ?? 0;
      const empty = method === 'HEAD' || status === 204 || status === 304;
      if (empty) response.resume();
      resolve(
        new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
          status,
          statusText: response.statusMessage ?? '',
          headers: responseHeaders(response.headers),
        }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

function responseHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}
