// Resolving a webhook's host to the addresses the delivery may connect to. Every resolved address is
// checked, and the connection is then made to those checked addresses only (delivery-http.ts resolves
// through here in the `lookup` its sockets connect with, and checks IP literals as it connects), so a
// DNS answer that changes between check and connect (rebinding) cannot steer a request to a refused
// address.
import dns from 'node:dns/promises';
import { addressVerdict, hostnameVerdict, type AddressPolicy, type Verdict } from '../engine/webhooks/address-safety';
import type { WebhookTarget } from '../engine/webhooks/webhook-url';

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** The host is refused by the address policy: not retried sooner, and said plainly in the log. */
export class RefusedAddress extends Error {}

/**
 * Verdicts by address, per policy object: a verdict is a pure function of both (policies are made once
 * from configuration and never changed), and a receiver's address is checked on every attempt.
 */
const verdicts = new WeakMap<AddressPolicy, Map<string, Verdict>>();
const MAX_REMEMBERED = 1024;

function verdictFor(address: string, policy: AddressPolicy): Verdict {
  let known = verdicts.get(policy);
  if (!known) verdicts.set(policy, (known = new Map()));
  let verdict = known.get(address);
  if (!verdict) {
    verdict = addressVerdict(address, policy);
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(address, verdict);
  }
  return verdict;
}

export async function resolveDeliveryAddresses(target: WebhookTarget, policy: AddressPolicy): Promise<CheckedAddress[]> {
  if (target.literal) {
    const verdict = verdictFor(target.host, policy);
    if (!verdict.allowed) throw new RefusedAddress(`refused: ${verdict.reason}`);
    return [{ address: target.host, family: target.host.includes(':') ? 6 : 4 }];
  }
  const named = hostnameVerdict(target.host, policy);
  if (named && !named.allowed) throw new RefusedAddress(`refused: ${named.reason}`);
  let found: Array<{ address: string; family: number }>;
  try {
    found = await dns.lookup(target.host, { all: true, verbatim: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new Error(`${target.host} could not be resolved (${code})`);
  }
  if (found.length === 0) throw new Error(`${target.host} could not be resolved (no addresses)`);
  // One refused address refuses the host: a name that answers both public and private addresses is
  // either misconfigured or an attempt to slip a private one through.
  for (const a of found) {
    const verdict = verdictFor(a.address, policy);
    if (!verdict.allowed) throw new RefusedAddress(`refused: ${target.host} resolves to ${verdict.reason}`);
  }
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}
