// The `beacons` of a track body: what the device ranged. Radar's SDKs send each entry as the beacon
// they synced plus its signal (`_id`, `type`, `uuid`, `major`, `minor` or `uid`, `instance`, `rssi`…);
// only the identifiers are read. Entries are checked strictly (a wrong identifier is a 400 naming the
// entry) because SDKs only send beacons they matched against the synced list, so a malformed entry is
// a client bug worth seeing, and bounded in number because the list arrives on every update.
import { BadRequest } from '../errors';
import type { RangedBeacon } from '../../../core/beacons';
import { isAbsent, readString } from '../../../core/input/scalars';
import { readJson } from '../../../core/input/structured';

export const MAX_RANGED_BEACONS = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX = (bytes: number): RegExp => new RegExp(`^[0-9a-f]{${bytes * 2}}$`);
const OBJECT_ID = /^[0-9a-f]{24}$/i;

function readUint16(raw: unknown, param: string): string {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new BadRequest(param, `${param} must be an integer from 0 to 65535`);
  }
  return String(Number(text));
}

function readHex(raw: unknown, param: string, pattern: RegExp, what: string): string {
  const text = typeof raw === 'string' ? raw.trim().toLowerCase().replace(/^0x/, '') : undefined;
  if (text === undefined || !pattern.test(text)) throw new BadRequest(param, `${param} must be ${what}`);
  return text;
}

function readEntry(raw: unknown, param: string): RangedBeacon {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new BadRequest(param, `${param} must be a beacon object`);
  const e = raw as Record<string, unknown>;
  const id = readString(e._id, `${param}._id`, { pattern: OBJECT_ID, patternMessage: `${param}._id must be a beacon _id (24 hex characters)` })?.toLowerCase();
  const declared = readString(e.type, `${param}.type`, { maxLength: 16 })?.toLowerCase();
  const type = declared ?? (!isAbsent(e.uid) ? 'eddystone' : !isAbsent(e.uuid) ? 'ibeacon' : undefined);
  if (type === 'ibeacon') {
    return {
      type,
      uuid: readHex(e.uuid, `${param}.uuid`, UUID, 'a UUID like 2f234454-cf6d-4a0f-adf2-f4911ba9ffa6'),
      major: readUint16(e.major, `${param}.major`),
      minor: readUint16(e.minor, `${param}.minor`),
      ...(id === undefined ? {} : { id }),
    };
  }
  if (type === 'eddystone') {
    return {
      type,
      uid: readHex(e.uid, `${param}.uid`, HEX(10), 'the 10-byte Eddystone namespace as 20 hex characters'),
      instance: readHex(e.instance, `${param}.instance`, HEX(6), 'the 6-byte Eddystone instance as 12 hex characters'),
      ...(id === undefined ? {} : { id }),
    };
  }
  if (declared !== undefined) throw new BadRequest(`${param}.type`, `${param}.type must be one of ibeacon, eddystone`);
  if (id !== undefined) return { type: 'id', id };
  throw new BadRequest(param, `${param} must carry uuid, major and minor (iBeacon), uid and instance (Eddystone), or _id`);
}

/** undefined when the body has no list: the device did not range (see beacon-transitions.ts). */
export function readRangedBeacons(raw: unknown, param = 'beacons'): RangedBeacon[] | undefined {
  const value = readJson(raw, param);
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new BadRequest(param, `${param} must be an array of ranged beacons`);
  if (value.length > MAX_RANGED_BEACONS) throw new BadRequest(param, `${param} can hold at most ${MAX_RANGED_BEACONS} beacons`);
  return value.map((entry, i) => readEntry(entry, `${param}[${i}]`));
}
