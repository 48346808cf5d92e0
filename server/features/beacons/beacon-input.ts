// Body rules of beacon create and upsert (spec: Beacon resource and Beacons endpoints).
import { BadRequest } from '../../http/errors';
import { readBoolean, readEnum, readLngLatArray, readMetadata, readString, required } from '../../http/params';
import type { BeaconFields } from '../../../core/model/beacon';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX = (bytes: number): RegExp => new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`);

function readUint16(raw: unknown, param: string): string | undefined {
  const text = readString(raw, param);
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new BadRequest(param, `${param} must be an integer from 0 to 65535`);
  return String(Number(text));
}

export function parseBeaconInput(body: Record<string, unknown>): BeaconFields {
  const description = required(readString(body.description, 'description'), 'description');
  const type = required(readEnum(body.type, 'type', ['ibeacon', 'eddystone'] as const), 'type');
  const coordinates = required(readLngLatArray(body.coordinates, 'coordinates'), 'coordinates');
  const input: BeaconFields = {
    description,
    type,
    geometry: { type: 'Point', coordinates },
    enabled: readBoolean(body.enabled, 'enabled') ?? true,
    metadata: readMetadata(body.metadata, 'metadata', 16),
  };
  if (type === 'ibeacon') {
    input.uuid = required(readString(body.uuid, 'uuid', { pattern: UUID, patternMessage: 'uuid must be a UUID like 2f234454-cf6d-4a0f-adf2-f4911ba9ffa6' }), 'uuid').toLowerCase();
    input.major = required(readUint16(body.major, 'major'), 'major');
    input.minor = required(readUint16(body.minor, 'minor'), 'minor');
  } else {
    input.uid = required(readString(body.uid, 'uid', { pattern: HEX(10), patternMessage: 'uid must be the 10-byte Eddystone namespace as 20 hex characters' }), 'uid').toLowerCase();
    input.instance = required(readString(body.instance, 'instance', { pattern: HEX(6), patternMessage: 'instance must be the 6-byte Eddystone instance as 12 hex characters' }), 'instance').toLowerCase();
  }
  return input;
}
