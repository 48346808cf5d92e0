// How a beacon appears on a user (`user.beacons`) and on beacon events: the spec's beacon fields
// (`type`, `uuid`, `major`, `minor`, `description`, `tag`, `externalId`, `enabled`), with `_id` and
// `metadata` as Radar's SDKs read them, and `uid`/`instance` for Eddystone beacons.
import type { IndexedBeacon } from '../../../core/beacons';
import type { BeaconView } from '../../../core/model/shown';

const FIELDS = ['_id', 'type', 'uuid', 'major', 'minor', 'uid', 'instance', 'description', 'tag', 'externalId', 'enabled', 'metadata'] as const;

export function beaconView(b: IndexedBeacon): BeaconView {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) if (b[f] !== undefined) out[f] = b[f];
  return out;
}
