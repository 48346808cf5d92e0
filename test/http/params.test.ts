// The parameter readers (server/http/params): each case is a raw query/form/JSON value → the typed value,
// or the exact 400 (param and message) the client would get.
import { apiErrorOf } from '../../server/http/errors';
import {
  inferScalar, readBoolean, readBracketFilters, readDatetime, readDictionary, readEnum, readJson, readLatLng,
  readList, readLngLatArray, readMetadata, readNumber, readString, required,
} from '../../server/http/params';

type Outcome = { value: unknown } | { param: string; message: string };

function outcome(run: () => unknown): Outcome {
  try {
    const value = run();
    return { value: value instanceof Date ? value.toISOString() : value };
  } catch (err) {
    const known = apiErrorOf(err);
    if (known?.status === 400 && known.param !== undefined) return { param: known.param, message: known.message };
    throw err;
  }
}

interface Row {
  name: string;
  run: () => unknown;
  want: Outcome;
}

const ok = (value: unknown): Outcome => ({ value });
const bad = (param: string, message: string): Outcome => ({ param, message });

function table(rows: Row[]): void {
  test.each(rows)('$name', ({ run, want }) => {
    expect(outcome(run)).toEqual(want);
  });
}

describe('readBoolean', () => {
  const notBool = bad('enabled', 'enabled must be a boolean (true or false)');
  const r = (raw: unknown) => () => readBoolean(raw, 'enabled');
  table([
    { name: 'true', run: r(true), want: ok(true) },
    { name: 'false', run: r(false), want: ok(false) },
    { name: '"true"', run: r('true'), want: ok(true) },
    { name: '"false"', run: r('false'), want: ok(false) },
    { name: '"TRUE" (any case)', run: r('TRUE'), want: ok(true) },
    { name: '" yes " (trimmed)', run: r(' yes '), want: ok(true) },
    { name: '"no"', run: r('no'), want: ok(false) },
    { name: '"1"', run: r('1'), want: ok(true) },
    { name: '"0"', run: r('0'), want: ok(false) },
    { name: '1', run: r(1), want: ok(true) },
    { name: '0', run: r(0), want: ok(false) },
    { name: 'absent', run: r(undefined), want: ok(undefined) },
    { name: 'null (JS SDK unset field)', run: r(null), want: ok(undefined) },
    { name: 'empty string', run: r(''), want: ok(undefined) },
    { name: '"maybe"', run: r('maybe'), want: notBool },
    { name: '2', run: r(2), want: notBool },
    { name: '"truee"', run: r('truee'), want: notBool },
    { name: 'object', run: r({}), want: notBool },
    { name: 'array (repeated query key)', run: r(['true', 'false']), want: notBool },
  ]);
});

describe('readNumber', () => {
  const limit = (raw: unknown) => () => readNumber(raw, 'limit', { min: 1, max: 1000, integer: true });
  const plain = (raw: unknown) => () => readNumber(raw, 'radius');
  table([
    { name: '"5"', run: plain('5'), want: ok(5) },
    { name: '" 5 " (trimmed)', run: plain(' 5 '), want: ok(5) },
    { name: '"-1.5"', run: plain('-1.5'), want: ok(-1.5) },
    { name: '"+2"', run: plain('+2'), want: ok(2) },
    { name: '".5"', run: plain('.5'), want: ok(0.5) },
    { name: '"5."', run: plain('5.'), want: ok(5) },
    { name: '"1e3"', run: plain('1e3'), want: ok(1000) },
    { name: 'JSON number', run: plain(7.25), want: ok(7.25) },
    { name: 'absent', run: plain(undefined), want: ok(undefined) },
    { name: 'null', run: plain(null), want: ok(undefined) },
    { name: 'empty string', run: plain(''), want: ok(undefined) },
    { name: 'blank string', run: plain('  '), want: bad('radius', 'radius must be a number') },
    { name: '"abc"', run: plain('abc'), want: bad('radius', 'radius must be a number') },
    { name: '"0x10" (no hex)', run: plain('0x10'), want: bad('radius', 'radius must be a number') },
    { name: '"1,5" (no decimal comma)', run: plain('1,5'), want: bad('radius', 'radius must be a number') },
    { name: '"5m" (no units)', run: plain('5m'), want: bad('radius', 'radius must be a number') },
    { name: '"Infinity"', run: plain('Infinity'), want: bad('radius', 'radius must be a number') },
    { name: '"NaN"', run: plain('NaN'), want: bad('radius', 'radius must be a number') },
    { name: 'true', run: plain(true), want: bad('radius', 'radius must be a number') },
    { name: '"1e999" overflows', run: plain('1e999'), want: bad('radius', 'radius must be a finite number') },
    { name: 'JSON Infinity', run: plain(Infinity), want: bad('radius', 'radius must be a finite number') },
    { name: 'limit 1', run: limit('1'), want: ok(1) },
    { name: 'limit 1000', run: limit('1000'), want: ok(1000) },
    { name: 'limit 0', run: limit('0'), want: bad('limit', 'limit must be between 1 and 1000') },
    { name: 'limit 1001', run: limit('1001'), want: bad('limit', 'limit must be between 1 and 1000') },
    { name: 'limit -5', run: limit('-5'), want: bad('limit', 'limit must be between 1 and 1000') },
    { name: 'limit 1.5', run: limit('1.5'), want: bad('limit', 'limit must be an integer') },
    { name: 'limit "10.0" is the integer 10', run: limit('10.0'), want: ok(10) },
    { name: 'min only, below', run: () => readNumber('-1', 'n', { min: 0 }), want: bad('n', 'n must be at least 0') },
    { name: 'max only, above', run: () => readNumber(11, 'n', { max: 10 }), want: bad('n', 'n must be at most 10') },
    { name: 'greaterThan, equal', run: () => readNumber('0', 'hours', { greaterThan: 0 }), want: bad('hours', 'hours must be greater than 0') },
    { name: 'greaterThan, above', run: () => readNumber('0.1', 'hours', { greaterThan: 0 }), want: ok(0.1) },
  ]);
});

describe('readString, readEnum, required', () => {
  table([
    { name: 'string', run: () => readString('abc', 'tag'), want: ok('abc') },
    { name: 'number becomes its text', run: () => readString(5, 'tag'), want: ok('5') },
    { name: 'boolean becomes its text', run: () => readString(true, 'tag'), want: ok('true') },
    { name: 'absent', run: () => readString(undefined, 'tag'), want: ok(undefined) },
    { name: 'object', run: () => readString({}, 'tag'), want: bad('tag', 'tag must be a string') },
    { name: 'array (repeated query key)', run: () => readString(['a', 'b'], 'tag'), want: bad('tag', 'tag must be a string') },
    { name: 'at the length limit', run: () => readString('x'.repeat(256), 'tag', { maxLength: 256 }), want: ok('x'.repeat(256)) },
    { name: 'over the length limit', run: () => readString('x'.repeat(257), 'tag', { maxLength: 256 }), want: bad('tag', 'tag must be at most 256 characters') },
    { name: 'over the default limit of 1024', run: () => readString('x'.repeat(1025), 'tag'), want: bad('tag', 'tag must be at most 1024 characters') },
    { name: 'pattern mismatch, default message', run: () => readString('a b', 'name', { pattern: /^\w+$/ }), want: bad('name', 'name has an invalid format') },
    { name: 'pattern mismatch, own message', run: () => readString('a b', 'name', { pattern: /^\w+$/, patternMessage: 'name: letters only' }), want: bad('name', 'name: letters only') },
    { name: 'enum member', run: () => readEnum('eddystone', 'type', ['ibeacon', 'eddystone']), want: ok('eddystone') },
    { name: 'enum is case-sensitive', run: () => readEnum('IBEACON', 'type', ['ibeacon', 'eddystone']), want: bad('type', 'type must be one of ibeacon, eddystone') },
    { name: 'enum non-string', run: () => readEnum(1, 'type', ['ibeacon', 'eddystone']), want: bad('type', 'type must be one of ibeacon, eddystone') },
    { name: 'required and present', run: () => required('x', 'tag'), want: ok('x') },
    { name: 'required and absent', run: () => required(undefined, 'tag'), want: bad('tag', 'tag is required') },
  ]);
});

describe('readDatetime', () => {
  const r = (raw: unknown) => () => readDatetime(raw, 'createdBefore');
  const invalid = bad('createdBefore', 'createdBefore must be a date or an ISO 8601 datetime');
  table([
    { name: 'a date is midnight UTC', run: r('2026-01-02'), want: ok('2026-01-02T00:00:00.000Z') },
    { name: 'UTC with milliseconds', run: r('2026-01-02T03:04:05.678Z'), want: ok('2026-01-02T03:04:05.678Z') },
    { name: 'UTC without milliseconds', run: r('2026-01-02T03:04:05Z'), want: ok('2026-01-02T03:04:05.000Z') },
    { name: 'minutes only', run: r('2026-01-02T03:04Z'), want: ok('2026-01-02T03:04:00.000Z') },
    { name: 'offset with colon', run: r('2026-01-02T03:04:05.678+01:00'), want: ok('2026-01-02T02:04:05.678Z') },
    { name: 'offset without colon', run: r('2026-01-02T03:04:05-0530'), want: ok('2026-01-02T08:34:05.000Z') },
    { name: 'no offset is UTC, whatever the server zone', run: r('2026-01-02T03:04:05'), want: ok('2026-01-02T03:04:05.000Z') },
    { name: 'space separator, no offset', run: r('2026-01-02 03:04:05'), want: ok('2026-01-02T03:04:05.000Z') },
    { name: 'surrounding blanks', run: r(' 2026-01-02T03:04:05Z '), want: ok('2026-01-02T03:04:05.000Z') },
    { name: 'leap day of a leap year', run: r('2024-02-29'), want: ok('2024-02-29T00:00:00.000Z') },
    { name: 'leap day of a common year', run: r('2026-02-29'), want: invalid },
    { name: 'February 30th', run: r('2026-02-30'), want: invalid },
    { name: 'April 31st', run: r('2026-04-31T10:00:00Z'), want: invalid },
    { name: 'month 13', run: r('2026-13-01'), want: invalid },
    { name: 'month 0', run: r('2026-00-10'), want: invalid },
    { name: 'day 0', run: r('2026-01-00'), want: invalid },
    { name: 'hour 25', run: r('2026-01-02T25:00:00Z'), want: invalid },
    { name: 'minute 60', run: r('2026-01-02T03:60:00Z'), want: invalid },
    { name: 'a word', run: r('yesterday'), want: invalid },
    { name: 'US style', run: r('01/02/2026'), want: invalid },
    { name: 'epoch ms as text', run: r('1767323045678'), want: invalid },
    { name: 'epoch ms from a JSON body', run: r(1767323045678), want: ok('2026-01-02T03:04:05.678Z') },
    { name: 'boolean', run: r(true), want: invalid },
    { name: 'absent', run: r(undefined), want: ok(undefined) },
    { name: 'empty', run: r(''), want: ok(undefined) },
  ]);
});

describe('readList', () => {
  table([
    { name: 'comma-separated, trimmed', run: () => readList('a, b ,c', 'tags'), want: ok(['a', 'b', 'c']) },
    { name: 'blanks dropped', run: () => readList('a,,b,', 'tags'), want: ok(['a', 'b']) },
    { name: 'only blanks is absent', run: () => readList(' , ,', 'tags'), want: ok(undefined) },
    { name: 'array of strings and numbers', run: () => readList(['a', 1], 'tags'), want: ok(['a', '1']) },
    { name: 'object', run: () => readList({ a: 1 }, 'tags'), want: bad('tags', 'tags must be a comma-separated list') },
    { name: 'array with an object', run: () => readList(['a', {}], 'tags'), want: bad('tags', 'tags must be a comma-separated list') },
  ]);
});

describe('readJson and readDictionary', () => {
  table([
    { name: 'JSON text', run: () => readJson('{"a":1}', 'x'), want: ok({ a: 1 }) },
    { name: 'already parsed', run: () => readJson({ a: 1 }, 'x'), want: ok({ a: 1 }) },
    { name: 'not JSON', run: () => readJson('{a:1}', 'x'), want: bad('x', 'x must be valid JSON') },
    { name: 'dictionary text (form body)', run: () => readDictionary('{"chain":{"a":true}}', 'chainMetadata'), want: ok({ chain: { a: true } }) },
    { name: 'dictionary object (JSON body)', run: () => readDictionary({ b: 2 }, 'chainMetadata'), want: ok({ b: 2 }) },
    { name: 'array', run: () => readDictionary('[1,2]', 'chainMetadata'), want: bad('chainMetadata', 'chainMetadata must be a dictionary (a JSON object)') },
    { name: 'JSON null text', run: () => readDictionary('null', 'chainMetadata'), want: bad('chainMetadata', 'chainMetadata must be a dictionary (a JSON object)') },
    { name: 'number', run: () => readDictionary(5, 'chainMetadata'), want: bad('chainMetadata', 'chainMetadata must be a dictionary (a JSON object)') },
    { name: 'plain text', run: () => readDictionary('hello', 'chainMetadata'), want: bad('chainMetadata', 'chainMetadata must be valid JSON') },
    { name: 'absent', run: () => readDictionary(undefined, 'chainMetadata'), want: ok(undefined) },
  ]);
});

describe('readMetadata', () => {
  const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
  const r = (raw: unknown) => () => readMetadata(raw, 'metadata', 16);
  table([
    { name: 'value types kept (JSON body)', run: r({ s: '1', n: 1, b: true, z: 0, f: false, e: '' }), want: ok({ s: '1', n: 1, b: true, z: 0, f: false, e: '' }) },
    { name: 'value types kept (form JSON text)', run: r('{"s":"1","n":1.5,"b":false}'), want: ok({ s: '1', n: 1.5, b: false }) },
    { name: 'empty dictionary', run: r({}), want: ok({}) },
    { name: '16 keys', run: r(keys(16)), want: ok(keys(16)) },
    { name: '17 keys', run: r(keys(17)), want: bad('metadata', 'metadata can have at most 16 keys') },
    { name: 'nested object value', run: r({ a: { b: 1 } }), want: bad('metadata.a', 'metadata.a must be a string, boolean or number') },
    { name: 'array value', run: r({ list: [1] }), want: bad('metadata.list', 'metadata.list must be a string, boolean or number') },
    { name: 'null value', run: r('{"gone":null}'), want: bad('metadata.gone', 'metadata.gone must be a string, boolean or number') },
    { name: 'string value at 1024 characters', run: r({ a: 'x'.repeat(1024) }), want: ok({ a: 'x'.repeat(1024) }) },
    { name: 'string value over 1024 characters', run: r({ a: 'x'.repeat(1025) }), want: bad('metadata.a', 'metadata.a must be at most 1024 characters') },
    { name: 'empty key', run: r({ '': 1 }), want: bad('metadata', 'metadata keys must be 1 to 128 characters') },
    { name: 'key over 128 characters', run: r({ ['k'.repeat(129)]: 1 }), want: bad('metadata', 'metadata keys must be 1 to 128 characters') },
    { name: '__proto__ key (would be dropped silently)', run: r('{"__proto__":"x","a":1}'), want: bad('metadata', 'metadata keys cannot be "__proto__"') },
    { name: 'constructor is an ordinary key', run: r('{"constructor":"x"}'), want: ok({ constructor: 'x' }) },
    { name: 'a list', run: r('[1,2]'), want: bad('metadata', 'metadata must be a dictionary (a JSON object)') },
    { name: 'not JSON', run: r('plan=pro'), want: bad('metadata', 'metadata must be valid JSON') },
    { name: 'absent', run: r(undefined), want: ok(undefined) },
  ]);
});

describe('metadata[key] filters', () => {
  table([
    { name: 'true → boolean', run: () => inferScalar('true'), want: ok(true) },
    { name: 'false → boolean', run: () => inferScalar('false'), want: ok(false) },
    { name: 'TRUE stays text', run: () => inferScalar('TRUE'), want: ok('TRUE') },
    { name: 'integer → number', run: () => inferScalar('42'), want: ok(42) },
    { name: 'negative decimal → number', run: () => inferScalar('-5.5'), want: ok(-5.5) },
    { name: 'exponent stays text', run: () => inferScalar('1e3'), want: ok('1e3') },
    { name: 'word stays text', run: () => inferScalar('pro'), want: ok('pro') },
    { name: 'empty stays text', run: () => inferScalar(''), want: ok('') },
    {
      name: 'collects typed filters, ignores other parameters',
      run: () => readBracketFilters({ 'metadata[plan]': 'pro', 'metadata[seats]': '5', 'metadata[trial]': 'false', limit: '10', 'metadatax[a]': '1' }, 'metadata'),
      want: ok({ plan: 'pro', seats: 5, trial: false }),
    },
    { name: 'keys with dots and spaces', run: () => readBracketFilters({ 'metadata[a.b c]': 'x' }, 'metadata'), want: ok({ 'a.b c': 'x' }) },
    { name: 'repeated key: the last value wins', run: () => readBracketFilters({ 'metadata[plan]': ['free', 'pro'] }, 'metadata'), want: ok({ plan: 'pro' }) },
    { name: 'none present', run: () => readBracketFilters({ limit: '5' }, 'metadata'), want: ok(undefined) },
    { name: 'empty brackets', run: () => readBracketFilters({ 'metadata[]': 'x' }, 'metadata'), want: bad('metadata[]', 'metadata[] needs a key between the brackets') },
    { name: 'non-text value', run: () => readBracketFilters({ 'metadata[a]': { b: 1 } }, 'metadata'), want: bad('metadata[a]', 'metadata[a] must be a single value') },
  ]);
});

describe('readLatLng ("latitude,longitude" → [lng, lat])', () => {
  const r = (raw: unknown) => () => readLatLng(raw, 'near');
  const shape = bad('near', 'near must be "latitude,longitude"');
  table([
    { name: 'swaps into service order', run: r('40.7484,-73.9857'), want: ok([-73.9857, 40.7484]) },
    { name: 'blanks around parts', run: r(' 40.7 , -73.9 '), want: ok([-73.9, 40.7]) },
    { name: 'south-west corner', run: r('-90,-180'), want: ok([-180, -90]) },
    { name: 'north-east corner', run: r('90,180'), want: ok([180, 90]) },
    { name: 'latitude 90.0001', run: r('90.0001,0'), want: bad('near', 'near latitude must be between -90 and 90') },
    { name: 'longitude -180.5', run: r('0,-180.5'), want: bad('near', 'near longitude must be between -180 and 180') },
    { name: 'one number', run: r('40.7'), want: shape },
    { name: 'three numbers', run: r('40.7,-73.9,10'), want: shape },
    { name: 'missing latitude', run: r(',5'), want: shape },
    { name: 'words', run: r('north,west'), want: shape },
    { name: 'JSON array', run: r([40.7, -73.9]), want: bad('near', 'near must be a string "latitude,longitude"') },
    { name: 'absent', run: r(undefined), want: ok(undefined) },
  ]);
});

describe('readLngLatArray ([longitude,latitude])', () => {
  const r = (raw: unknown) => () => readLngLatArray(raw, 'coordinates');
  const shape = bad('coordinates', 'coordinates must be [longitude,latitude]');
  table([
    { name: 'array (JSON body)', run: r([-73.9857, 40.7484]), want: ok([-73.9857, 40.7484]) },
    { name: 'JSON text (form body)', run: r('[-73.9857,40.7484]'), want: ok([-73.9857, 40.7484]) },
    { name: 'longitude 181', run: r([181, 0]), want: bad('coordinates', 'coordinates longitude must be between -180 and 180') },
    { name: 'latitude -91', run: r([0, -91]), want: bad('coordinates', 'coordinates latitude must be between -90 and 90') },
    { name: 'one number', run: r([1]), want: shape },
    { name: 'three numbers', run: r([1, 2, 3]), want: shape },
    { name: 'strings inside', run: r(['1', '2']), want: shape },
    { name: 'an object', run: r({ lng: 1, lat: 2 }), want: shape },
    { name: '"lat,lng" text', run: r('40.7,-73.9'), want: bad('coordinates', 'coordinates must be valid JSON') },
    { name: 'absent', run: r(undefined), want: ok(undefined) },
  ]);
});
