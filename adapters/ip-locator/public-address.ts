import net from 'node:net';

/** A parsed address; IPv4-mapped and NAT64 IPv6 addresses are reduced to their IPv4 address. */
export interface ParsedAddress {
  family: 4 | 6;
  /** Canonical text for database lookups. */
  text: string;
}

type Range = readonly [base: string, bits: number];

// Ranges that never locate anywhere: private, loopback, link-local, shared (CGNAT),
// documentation, benchmarking, multicast and reserved (IANA special-purpose registries).
const IPV4_NOT_PUBLIC: readonly Range[] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const IPV6_NOT_PUBLIC: readonly Range[] = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible block
  ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];

function ipv4ToNumber(text: string): number {
  return text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

/** Eight 16-bit groups; the text must already be valid IPv6. */
function ipv6Groups(text: string): number[] {
  let head = text;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (v4 !== null) {
    const n = ipv4ToNumber(v4[1]);
    tail.push(Math.floor(n / 65536), n % 65536);
    head = head.slice(0, -v4[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const l = parse(left);
  const r = [...parse(right), ...tail];
  if (right === undefined) return [...l, ...tail];
  return [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
}

function inIpv4Range(n: number, [base, bits]: Range): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(ipv4ToNumber(base) / size);
}

function inIpv6Range(groups: number[], [base, bits]: Range): boolean {
  const b = ipv6Groups(base);
  for (let i = 0, left = bits; left > 0; i++, left -= 16) {
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    if ((groups[i] & mask) !== (b[i] & mask)) return false;
  }
  return true;
}

/** Accepts what a proxy header may carry: surrounding spaces, [brackets], an IPv6 zone (%eth0). */
export function parseAddress(input: string): ParsedAddress | undefined {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (net.isIPv4(text)) return { family: 4, text };
  if (!net.isIPv6(text)) return undefined;
  const groups = ipv6Groups(text.toLowerCase());
  const embeddedV4 = (): string => [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) are IPv4 clients.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return { family: 4, text: embeddedV4() };
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return { family: 4, text: embeddedV4() };
  return { family: 6, text: groups.map((g) => g.toString(16)).join(':') };
}

/** True when the address could be anywhere on the public internet. */
export function isPublicAddress(address: ParsedAddress): boolean {
  if (address.family === 4) {
    const n = ipv4ToNumber(address.text);
    return !IPV4_NOT_PUBLIC.some((range) => inIpv4Range(n, range));
  }
  const groups = ipv6Groups(address.text);
  return !IPV6_NOT_PUBLIC.some((range) => inIpv6Range(groups, range));
}
