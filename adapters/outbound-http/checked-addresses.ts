// A host's addresses, each checked by the guard. The connector resolves through here in the lookup its
// sockets connect with, and checks IP literals as it connects, so a DNS answer that changes between any
// earlier check and the connection (rebinding) cannot steer a request to a refused address.
import dns from 'node:dns/promises';
import net from 'node:net';
import { OutboundFailure, type AddressGuard } from '../../ports/outbound-http';

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution: the system resolver, or a stand-in for DNS in tests of rebinding. */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** A host as URLs spell it, without IPv6 brackets. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export async function checkedAddresses(hostText: string, guard: AddressGuard, resolve: Resolver = systemResolver): Promise<CheckedAddress[]> {
  const host = bareHost(hostText);
  const family = net.isIP(host);
  if (family !== 0) {
    const reason = guard.refuseAddress(host);
    if (reason !== undefined) throw new OutboundFailure('refused', `refused: ${reason}`, { host, reason });
    return [{ address: host, family: family === 6 ? 6 : 4 }];
  }
  const named = guard.refuseHost(host);
  if (named !== undefined) throw new OutboundFailure('refused', `refused: ${named}`, { host, reason: named });
  let found: Array<{ address: string; family: number }>;
  try {
    found = await resolve(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new OutboundFailure('unresolved', `${host} could not be resolved (${code})`, { host, reason: code });
  }
  if (found.length === 0) throw new OutboundFailure('unresolved', `${host} could not be resolved (no addresses)`, { host, reason: 'no addresses' });
  // One refused address refuses the host: a name that answers both public and private addresses is
  // either misconfigured or an attempt to slip a private one through.
  for (const a of found) {
    const reason = guard.refuseAddress(a.address);
    if (reason !== undefined) throw new OutboundFailure('refused', `refused: ${host} resolves to ${reason}`, { host, address: a.address, reason });
  }
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}
