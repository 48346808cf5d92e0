// Which network addresses a webhook may be delivered to. A webhook URL is chosen by whoever holds a
// secret key, and the gateway usually sits inside a private network next to databases and cloud
// metadata services: without this check a webhook would be a way to make the gateway send requests
// (with our signatures) to those. Addresses are classified once here, against the ranges the IANA
// special-purpose registries set aside, and the delivery path refuses every class but `public`
// unless the operator allows it.
import { ipMatchesAny, parseIpRanges } from '../ip-ranges';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

/** Checked in this order: the first class whose ranges hold the address wins (metadata lies inside link-local). */
const CLASS_RANGES: ReadonlyArray<[AddressClass, readonly string[]]> = [
  // AWS/GCP/Azure/OpenStack IMDS, AWS ECS task metadata, AWS IMDS over IPv6, Alibaba Cloud, Oracle Cloud (legacy).
  ['metadata', ['169.254.169.254/32', '169.254.170.2/32', 'fd00:ec2::254/128', '100.100.100.200/32', '192.0.0.192/32']],
  // 0.0.0.0/8 is "this network": on Linux a connection to 0.0.0.0 reaches the local host.
  ['unspecified', ['0.0.0.0/8', '::/128']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  ['link-local', ['169.254.0.0/16', 'fe80::/10']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']],
  // Carrier-grade NAT space; also where some clouds put internal services.
  ['shared', ['100.64.0.0/10']],
  ['multicast', ['224.0.0.0/4', 'ff00::/8']],
  [
    'reserved',
    [
      '192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4',
      // IPv4-compatible (deprecated), discard-only, documentation, and the prefixes that embed an IPv4
      // address (NAT64, 6to4, Teredo): the embedded address could be any of the classes above.
      '::/96', '100::/64', '2001:db8::/32', '64:ff9b::/96', '64:ff9b:1::/48', '2002::/16', '2001::/32',
    ],
  ],
];

/** Names that resolve to loopback or metadata services whatever DNS says. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** Classes the operator's allowPrivate switch opens. Metadata, multicast, unspecified and reserved stay shut. */
const PRIVATE_CLASSES: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'shared', 'link-local']);

export interface AddressPolicy {
  /** Allow loopback, private (RFC 1918, ULA), shared (CGNAT) and link-local addresses. */
  allowPrivate: boolean;
  /** CIDR ranges (or single addresses) allowed whatever their class, e.g. one internal receiver. */
  allowedNetworks: readonly string[];
}

export type Verdict = { allowed: true; class: AddressClass } | { allowed: false; class: AddressClass | 'invalid'; reason: string };

function bareAddress(ip: string): string {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  return zone >= 0 ? text.slice(0, zone) : text;
}

const IPV4_LITERAL = /^\d{1,3}(\.\d{1,3}){3}$/;

/** True when `text` is an IPv4 or IPv6 literal this module can classify. */
export function isIpLiteral(text: string): boolean {
  const bare = bareAddress(text);
  if (bare.includes('/') || bare.includes('*')) return false;
  return (IPV4_LITERAL.test(bare) || bare.includes(':')) && parseIpRanges(bare).ok;
}

/**
 * The class of an IPv4 or IPv6 address (IPv4-mapped IPv6 is classified as its IPv4 address);
 * undefined when the text is not an address.
 *
 * @example classifyAddress('169.254.169.254') // → 'metadata'
 */
export function classifyAddress(ip: string): AddressClass | undefined {
  const bare = bareAddress(ip);
  if (!isIpLiteral(bare)) return undefined;
  for (const [cls, ranges] of CLASS_RANGES) if (ipMatchesAny(bare, ranges)) return cls;
  return 'public';
}

/**
 * Loopback names that common /etc/hosts files (Debian, Red Hat) define besides localhost: they resolve to
 * loopback without DNS, so they are refused by name, like localhost, when settings are saved.
 */
const LOOPBACK_NAMES = new Set(['localhost.localdomain', 'localhost4', 'localhost4.localdomain4', 'localhost6', 'localhost6.localdomain6', 'ip6-localhost', 'ip6-loopback']);

/** A class for host names that must never be trusted to DNS: localhost and the metadata names. */
export function classifyHostname(host: string): AddressClass | undefined {
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost') || LOOPBACK_NAMES.has(name)) return 'loopback';
  if (METADATA_NAMES.has(name)) return 'metadata';
  return undefined;
}

function describe(cls: AddressClass): string {
  switch (cls) {
    case 'metadata':
      return 'a cloud metadata address';
    case 'unspecified':
      return 'an unspecified address';
    case 'link-local':
      return 'a link-local address';
    case 'shared':
      return 'a shared (carrier-grade NAT) address';
    case 'reserved':
      return 'a reserved or special-purpose address';
    default:
      return `a ${cls} address`;
  }
}

/** Whether a webhook may be delivered to `ip` under `policy`, with the reason when not. */
export function addressVerdict(ip: string, policy: AddressPolicy): Verdict {
  const cls = classifyAddress(ip);
  if (cls === undefined) return { allowed: false, class: 'invalid', reason: `${ip} is not an IP address` };
  if (policy.allowedNetworks.length > 0 && ipMatchesAny(bareAddress(ip), policy.allowedNetworks)) return { allowed: true, class: cls };
  if (cls === 'public') return { allowed: true, class: cls };
  if (policy.allowPrivate && PRIVATE_CLASSES.has(cls)) return { allowed: true, class: cls };
  const hint = PRIVATE_CLASSES.has(cls) ? ' (operators may allow it with WAYMARK_WEBHOOK_ALLOW_PRIVATE=true)' : '';
  return { allowed: false, class: cls, reason: `${bareAddress(ip)} is ${describe(cls)}${hint}` };
}

/** A host name's own verdict before DNS: refused names, or undefined when DNS has to decide. */
export function hostnameVerdict(host: string, policy: AddressPolicy): Verdict | undefined {
  const cls = classifyHostname(host);
  if (cls === undefined) return undefined;
  if (cls === 'loopback' && policy.allowPrivate) return { allowed: true, class: cls };
  // An allowed network may hold the loopback receiver: then the resolved addresses are checked against
  // it. When no allowed network holds a loopback address the name can never be reached: refuse it now.
  if (cls === 'loopback' && policy.allowedNetworks.length > 0 && (addressVerdict('127.0.0.1', policy).allowed || addressVerdict('::1', policy).allowed)) return undefined;
  return { allowed: false, class: cls, reason: `${host} names ${describe(cls)}` };
}
