// `maxspeed` (and `maxspeed:forward|backward`) to km/h: numbers, "50 mph", "knots", "none", "walk", and
// the national codes ("DE:urban", "FR:rural", "GB:nsl_single", "US:…") as OSRM's profiles know them.
// Unknown text gives null: the road class's default speed then applies.
const MPH = 1.609344;
const KNOT = 1.852;

/** km/h of the implicit limits most often tagged by code (OSM wiki "Speed limits by country"). */
const NATIONAL: Record<string, number> = {
  'at:rural': 100, 'at:trunk': 100, 'at:motorway': 130, 'at:urban': 50,
  'be:motorway': 120, 'be:rural': 70, 'be-vlg:rural': 70, 'be-wal:rural': 90, 'be:urban': 50,
  'ch:rural': 80, 'ch:trunk': 100, 'ch:motorway': 120, 'ch:urban': 50,
  'cz:rural': 90, 'cz:trunk': 110, 'cz:motorway': 130, 'cz:urban': 50,
  'de:living_street': 7, 'de:rural': 100, 'de:urban': 50, 'de:motorway': 130, 'de:bicycle_road': 30,
  'dk:rural': 80, 'dk:motorway': 130, 'dk:urban': 50,
  'es:rural': 90, 'es:trunk': 100, 'es:motorway': 120, 'es:urban': 50,
  'fi:rural': 80, 'fi:motorway': 120, 'fi:urban': 50,
  'fr:rural': 80, 'fr:trunk': 110, 'fr:motorway': 130, 'fr:urban': 50, 'fr:zone30': 30,
  'gb:nsl_single': 60 * MPH, 'gb:nsl_dual': 70 * MPH, 'gb:motorway': 70 * MPH,
  'hu:rural': 90, 'hu:trunk': 110, 'hu:motorway': 130, 'hu:urban': 50,
  'it:rural': 90, 'it:trunk': 110, 'it:motorway': 130, 'it:urban': 50,
  'lv:living_street': 20,
  'jp:national': 60, 'jp:motorway': 100,
  'nl:rural': 80, 'nl:trunk': 100, 'nl:motorway': 130, 'nl:urban': 50,
  'no:rural': 80, 'no:motorway': 110, 'no:urban': 50,
  'pl:rural': 90, 'pl:trunk': 100, 'pl:motorway': 140, 'pl:urban': 50,
  'ro:rural': 90, 'ro:trunk': 100, 'ro:motorway': 130, 'ro:urban': 50,
  'ru:living_street': 20, 'ru:rural': 90, 'ru:motorway': 110, 'ru:urban': 60,
  'se:rural': 70, 'se:motorway': 110, 'se:urban': 50,
  'sk:rural': 90, 'sk:motorway': 130, 'sk:urban': 50,
  'uk:nsl_single': 60 * MPH, 'uk:nsl_dual': 70 * MPH, 'uk:motorway': 70 * MPH,
  'us:rural': 55 * MPH, 'us:urban': 25 * MPH, 'us:motorway': 65 * MPH,
  'none': 140, 'signals': 0,
};

export function parseMaxspeed(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (t === 'walk') return 5;
  if (t === 'none') return NATIONAL.none;
  const national = NATIONAL[t] ?? NATIONAL[t.replace(/^([a-z]{2}):zone:?(\d+)$/, 'zone$2')];
  if (national !== undefined) return national > 0 ? national : null;
  const zone = /^[a-z]{2}(?:-[a-z]+)?:zone:?(\d+)$/.exec(t);
  if (zone) return Number(zone[1]);
  const m = /^(\d+(?:\.\d+)?)\s*(mph|knots|km\/h|kmh|kph)?$/.exec(t);
  if (!m) return null;
  const value = Number(m[1]);
  if (!(value > 0) || value > 300) return null;
  if (m[2] === 'mph') return value * MPH;
  if (m[2] === 'knots') return value * KNOT;
  return value;
}

/** Ferry `duration` ("HH:MM", "HH:MM:SS", "MM", ISO 8601 "PT1H30M") to seconds; null when unreadable. */
export function parseDurationSeconds(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim();
  const clock = /^(\d+):(\d{1,2})(?::(\d{1,2}))?$/.exec(t);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 60;
  const iso = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/i.exec(t);
  if (iso && (iso[1] || iso[2] || iso[3])) return Number(iso[1] ?? 0) * 3600 + Number(iso[2] ?? 0) * 60 + Number(iso[3] ?? 0);
  return null;
}

/** "7.5", "7.5 t", "3500 kg", "12 st"? → tonnes; null when unreadable. */
export function parseTonnes(text: string | undefined): number | null {
  if (text === undefined) return null;
  const m = /^(\d+(?:\.\d+)?)\s*(t|kg|lbs|st)?$/i.exec(text.trim());
  if (!m) return null;
  const v = Number(m[1]);
  const unit = (m[2] ?? 't').toLowerCase();
  return unit === 'kg' ? v / 1000 : unit === 'lbs' ? v * 0.000453592 : unit === 'st' ? v * 0.90718474 : v;
}

/** "4", "4.2 m", "13'6\"" → metres; null when unreadable. */
export function parseMetres(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim();
  const feet = /^(\d+)'(?:\s*(\d+)")?$/.exec(t);
  if (feet) return Number(feet[1]) * 0.3048 + Number(feet[2] ?? 0) * 0.0254;
  const m = /^(\d+(?:\.\d+)?)\s*(m)?$/.exec(t);
  return m ? Number(m[1]) : null;
}
