// A beacon as a device ranges it: only its radio identifiers. iBeacon (iOS and Android) carries a
// proximity UUID plus 16-bit major and minor numbers; Eddystone-UID (Android) a 10-byte namespace and a
// 6-byte instance. Identifiers are compared in one canonical text form (lower-case hex; major and minor
// in decimal without leading zeros), which the input readers produce, so "007" and 7 are one minor.

export type RangedBeacon =
  | { type: 'ibeacon'; uuid: string; major: string; minor: string; id?: string }
  | { type: 'eddystone'; uid: string; instance: string; id?: string }
  /** An entry naming only a beacon's `_id` (an SDK echoing a synced beacon). */
  | { type: 'id'; id: string };

/** The fields of a stored beacon that identify it on the air. */
export interface BeaconIdentifiers {
  type: 'ibeacon' | 'eddystone';
  uuid?: string;
  major?: string;
  minor?: string;
  uid?: string;
  instance?: string;
}

/** The key under which a beacon is found from what a device ranged; undefined for an id-only entry. */
export function airKey(b: RangedBeacon | BeaconIdentifiers): string | undefined {
  if (b.type === 'ibeacon') return `i:${b.uuid}:${b.major}:${b.minor}`;
  if (b.type === 'eddystone') return `e:${b.uid}:${b.instance}`;
  return undefined;
}
