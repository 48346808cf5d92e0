// A beacon as the Store keeps it: its radio identifiers, place and switches, under (tag, externalId).
import type { IndexedBeacon } from '../beacons';
import type { Metadata, Point } from '../types';
import type { DocBase } from './document';

export type BeaconType = 'ibeacon' | 'eddystone';

/** What a beacon's writer gives (beacon-input.ts checks it). */
export interface BeaconFields {
  description: string;
  type: BeaconType;
  uuid?: string;
  major?: string;
  minor?: string;
  uid?: string;
  instance?: string;
  geometry: Point;
  enabled: boolean;
  metadata?: Metadata;
}

export interface BeaconDoc extends DocBase, BeaconFields, IndexedBeacon {
  live: boolean;
  tag: string;
  externalId: string;
}
