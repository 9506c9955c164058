import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { addAbortSignal, pipeline, type Readable } from 'node:stream';
import { privateAddressReason } from './privateAddress';

/** Redirects followed, each judged again: more is a loop or a trap. */
export const MAX_REDIRECTS = 5;

/** A fetch that must not go ahead: the message says why, for the model. */
export class FetchRefusal extends Error {
  override readonly name = 'FetchRefusal';
}

export interface FetchRequest {
  url: URL;
  signal: AbortSignal;
  timeoutMs: number;
  /** The body is read up to this many bytes; the rest is cut. */
  maxBytes: number;
  /** Whether this URL's host may be on a private address (the user named it in trustedDomains). */
  mayBePrivate(url: URL): boolean;
  /** Judges each redirect's target before it is fetched: a FetchRefusal's message when it may not be. */
  judgeRedirect(url: URL): Promise<string | undefined>;
  userAgent: string;
}

export interface FetchedPage {
  /** Where the page really came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** Bytes past maxBytes were not read. */
  truncated: boolean;
}

/**
 * GET over http(s) with every address checked where the socket connects (so a name that resolves
 * to this machine or the local network, or changes its answer between two lookups, is refused),
 * redirects followed by hand, at most MAX_REDIRECTS, each checked and judged again.
 */
export async function fetchPage(request: FetchRequest): Promise<FetchedPage> {
  // The time limit covers the whole fetch, body included (a server may trickle a byte at a time),
  // on a timer this function holds and clears: AbortSignal.timeout's timer is unref'd and its
  // signal may be collected while nothing else refers to it.
  const limit = new AbortController();
  const timeout = new FetchRefusal(
    `${request.url.href} did not finish within ${request.timeoutMs} ms: nothing was returned. The server may be slow or sending the page very slowly; try again later or another address.`,
  );
  const timer = setTimeout(() => limit.abort(timeout), request.timeoutMs);
  const signal = AbortSignal.any([request.signal, limit.signal]);
  try {
    return await fetchWithin(request, signal);
  } catch (error) {
    if (limit.signal.aborted && !request.signal.aborted) throw timeout;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function fetchWithin(request: FetchRequest, signal: AbortSignal): Promise<FetchedPage> {
  let url = request.url;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefusal(`${url.href} is not an http or https address`);
    if (hop > 0) {
      const refusal = await request.judgeRedirect(url);
      if (refusal) throw new FetchRefusal(refusal);
    }
    const response = await get(url, request, signal);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      // Not drained: a redirect's body may trickle forever, holding its socket after we moved on.
      response.destroy();
      // The Location header is the server's text: it is not shown.
      if (hop === MAX_REDIRECTS)
        throw new FetchRefusal(`${request.url.href} redirected more than ${MAX_REDIRECTS} times; nothing was read`);
      url = new URL(location, url);
      continue;
    }
    const { body, truncated } = await readBody(response, request.maxBytes, signal);
    return {
      url: url.href,
      status: response.statusCode ?? 0,
      contentType: String(response.headers['content-type'] ?? ''),
      body,
      truncated,
    };
  }
}

/**
 * Refuses a URL whose host is (or resolves to) a private address, before anyone is asked about
 * it; the connection checks again where it connects, so a name that changes its answer is caught.
 */
export async function refusePrivateHost(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return refuseIfPrivate(url, host, allowPrivate);
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found)),
  );
  for (const a of addresses) refuseIfPrivate(url, a.address, allowPrivate);
}

function get(url: URL, request: FetchRequest, signal: AbortSignal): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowPrivate = request.mayBePrivate(url);
  // An address written in the URL is never looked up: it is checked here.
  if (isIP(host)) refuseIfPrivate(url, host, allowPrivate);
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      try {
        for (const a of addresses) refuseIfPrivate(url, a.address, allowPrivate);
      } catch (refusal) {
        return callback(refusal as Error, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const options: RequestOptions = {
    method: 'GET',
    headers: {
      'user-agent': request.userAgent,
      accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5',
      'accept-encoding': 'gzip, deflate, br',
    },
    lookup,
    signal,
    agent: false,
  };
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, resolve);
    req.on('error', reject);
    req.end();
  });
}

function refuseIfPrivate(url: URL, address: string, allowPrivate: boolean): void {
  const reason = privateAddressReason(address);
  if (reason && !allowPrivate) {
    throw new FetchRefusal(
      `${url.host} is on ${reason} (${address}), which web_fetch does not reach: nothing was fetched. ` +
        `The user can allow it by adding "${url.host}" to subagents.trustedDomains (the CLI: --trusted-domain ${url.host}).`,
    );
  }
}

async function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoder =
    encoding === 'gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  // pipeline, not pipe: a response cut or aborted ends the decoder too, so the read below never waits forever.
  const stream: Readable = addAbortSignal(signal, decoder ? pipeline(response, decoder, () => {}) : response);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(chunk.length, room);
    if (chunk.length > room) {
      response.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks), truncated: false };
}
