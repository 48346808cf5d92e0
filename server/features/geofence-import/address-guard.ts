// The sync's address policy, in the shape the HTTP source adapter takes. The classification is the
// one webhooks use (engine/webhooks/address-safety.ts); only the operator's switch differs.
import type { AddressGuard } from '../../../ports/geofence-sources';
import { addressVerdict, hostnameVerdict, type AddressPolicy, type Verdict } from '../../../core/webhooks/address-safety';

const PRIVATE_CLASSES = new Set(['loopback', 'private', 'shared', 'link-local']);

function reason(verdict: Verdict & { allowed: false }, host: string): string {
  const hint = PRIVATE_CLASSES.has(verdict.class) ? '; operators may allow it with WAYMARK_SYNC_ALLOW_PRIVATE=true' : '';
  // The shared verdicts end with the webhook setting's name; say ours instead.
  const said = verdict.reason.replace(/ \(operators may allow it with [A-Z_]+=true\)$/, '');
  return `${said || host}${hint}`;
}

export function syncAddressGuard(policy: AddressPolicy): AddressGuard {
  return {
    refuseHost(host) {
      const verdict = hostnameVerdict(host, policy);
      return verdict && !verdict.allowed ? reason(verdict, host) : undefined;
    },
    refuseAddress(ip) {
      const verdict = addressVerdict(ip, policy);
      return verdict.allowed ? undefined : reason(verdict, ip);
    },
  };
}
