// The webhook address policy in the shape the outbound connector takes (adapters/outbound-http): the
// reasons are the policy's own, naming the webhook setting that opens private addresses.
import type { AddressGuard } from '../../../../ports/outbound-http';
import { addressVerdict, hostnameVerdict, type AddressPolicy, type Verdict } from '../../../../core/webhooks/address-safety';

/** Verdicts are a pure function of address and policy, and a receiver's address is checked on every new connection. */
const MAX_REMEMBERED = 1024;

export function webhookAddressGuard(policy: AddressPolicy): AddressGuard {
  const verdicts = new Map<string, Verdict>();
  return {
    refuseHost(host) {
      const verdict = hostnameVerdict(host, policy);
      return verdict && !verdict.allowed ? verdict.reason : undefined;
    },
    refuseAddress(ip) {
      let verdict = verdicts.get(ip);
      if (verdict === undefined) {
        verdict = addressVerdict(ip, policy);
        if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
        verdicts.set(ip, verdict);
      }
      return verdict.allowed ? undefined : verdict.reason;
    },
  };
}
