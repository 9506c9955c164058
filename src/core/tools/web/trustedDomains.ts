/**
 * `subagents.trustedDomains` (user settings, or --trusted-domain): hosts web_fetch reaches without
 * asking. `example.com` and `example.com:8080` name a host (any port, or that one); `*.example.com`
 * its subdomains. Only a host named as such (not by a wildcard) may be on a private address.
 */

export type HostTrust = 'named' | 'wildcard' | undefined;

export function hostTrust(url: URL, patterns: readonly string[]): HostTrust {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  let trust: HostTrust;
  for (const raw of patterns) {
    const m = /^(\*\.)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(raw.trim().toLowerCase());
    if (!m) continue;
    const [, wildcard, name, wantPort] = m;
    if (wantPort && wantPort !== port) continue;
    const bare = name!.replace(/^\[|\]$/g, '');
    if (!wildcard && host === bare) return 'named';
    if (wildcard && host.endsWith(`.${bare}`)) trust = 'wildcard';
  }
  return trust;
}
