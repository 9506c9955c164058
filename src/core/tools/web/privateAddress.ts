import { BlockList, isIP } from 'node:net';

/**
 * Addresses web_fetch never reaches unless the user named the host: this machine, the local
 * network and the cloud's metadata endpoints, so a page or an agent cannot turn a fetch into a
 * request to a service behind the firewall. Checked on every address a name resolves to.
 */

const RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'this network'],
  ['10.0.0.0', 8, 'ipv4', 'a private network'],
  ['100.64.0.0', 10, 'ipv4', 'a carrier-grade NAT network'],
  ['127.0.0.0', 8, 'ipv4', 'this machine (loopback)'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local network (cloud metadata lives here)'],
  ['172.16.0.0', 12, 'ipv4', 'a private network'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved network'],
  ['192.168.0.0', 16, 'ipv4', 'a private network'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking network'],
  ['224.0.0.0', 3, 'ipv4', 'a multicast or reserved range'],
  ['::', 128, 'ipv6', 'this network'],
  ['::1', 128, 'ipv6', 'this machine (loopback)'],
  ['fc00::', 7, 'ipv6', 'a private network'],
  ['fe80::', 10, 'ipv6', 'a link-local network'],
  ['ff00::', 8, 'ipv6', 'a multicast range'],
];

const lists = RANGES.map(([net, prefix, type, what]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, type, what };
});

/** Why this address is not public (loopback, private, link-local…), or undefined when it is. */
export function privateAddressReason(address: string): string | undefined {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = isIP(ip);
  if (family === 0) return undefined;
  if (family === 6) {
    // IPv4 written inside IPv6 (::ffff:127.0.0.1, the NAT64 prefix 64:ff9b::/96) is judged as that IPv4 address.
    const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? mappedHex(ip);
    if (embedded) return privateAddressReason(embedded);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return lists.find((l) => l.type === type && l.list.check(ip, type))?.what;
}

/** `::ffff:7f00:1` as 127.0.0.1. */
function mappedHex(ip: string): string | undefined {
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!m) return undefined;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
