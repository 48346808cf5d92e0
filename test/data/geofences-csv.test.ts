import { Readable } from 'node:stream';
import { parseGeofenceCsv, parseGeofenceCsvAsync, type GeofenceCsvError } from '../../importers/geofences-csv';
import type { GeofenceInput } from '../../core/input/geofence-input';

const HEADER = 'description,type,tag,externalId,coordinates,radius';
const GOOD = 'Store,circle,store,1,"[-73.98,40.70]",100';
const RING = '"[[-73.99,40.7],[-73.98,40.7],[-73.98,40.71],[-73.99,40.71],[-73.99,40.7]]"';

const file = (...lines: string[]): string => `${lines.join('\n')}\n`;

function only(text: string | Buffer): GeofenceInput {
  const { rows, errors } = parseGeofenceCsv(text);
  expect(errors).toEqual([]);
  expect(rows).toHaveLength(1);
  return rows[0].input;
}

describe('geofence CSV: accepted rows and columns', () => {
  const cases: Array<{ name: string; text: string; expected: Partial<GeofenceInput> }> = [
    {
      name: 'minimal circle',
      text: file(HEADER, GOOD),
      expected: { description: 'Store', type: 'circle', tag: 'store', externalId: '1', geometryRadius: 100, enabled: true, geometryCenter: { type: 'Point', coordinates: [-73.98, 40.7] } },
    },
    {
      name: 'polygon with a quoted JSON ring and an empty radius',
      text: file(HEADER, `Block,polygon,zone,b1,${RING},`),
      expected: { type: 'polygon', geometry: { type: 'Polygon', coordinates: [JSON.parse(RING.slice(1, -1))] } },
    },
    { name: 'header names in any case, with spaces', text: file(' Description ,TYPE,Tag,externalid,Coordinates,RADIUS', GOOD), expected: { externalId: '1', geometryRadius: 100 } },
    { name: 'type written Circle', text: file(HEADER, 'Store,Circle,store,1,"[-73.98,40.70]",100'), expected: { type: 'circle' } },
    { name: 'cells trimmed', text: file(HEADER, '  Store , circle , store , 1 ," [-73.98,40.70] ", 100 '), expected: { description: 'Store', tag: 'store', externalId: '1' } },
    { name: 'metadata JSON column', text: file(`${HEADER},metadata`, `${GOOD},"{""brand"":""acme"",""n"":2,""ok"":true}"`), expected: { metadata: { brand: 'acme', n: 2, ok: true } } },
    { name: 'metadata JSON typed by hand without quotes', text: file(`${HEADER},metadata`, `${GOOD},{"brand":"acme"}`), expected: { metadata: { brand: 'acme' } } },
    { name: 'metadata.{key} columns as strings', text: file(`${HEADER},metadata.brand,metadata.floors`, `${GOOD},acme,42`), expected: { metadata: { brand: 'acme', floors: '42' } } },
    { name: 'metadata.{key} empty cell leaves the key out', text: file(`${HEADER},metadata.brand,metadata.floors`, `${GOOD},,42`), expected: { metadata: { floors: '42' } } },
    {
      name: 'operatingHours JSON column normalised',
      text: file(`${HEADER},operatingHours`, `${GOOD},"{""monday"":[[""8:00 am"",""5:00 pm""]],""SAT"":[[""10:00"",""14:00""]]}"`),
      expected: { operatingHours: { Mon: [['08:00', '17:00']], Sat: [['10:00', '14:00']] } },
    },
    {
      name: 'operatingHours.{day} columns merged',
      text: file(`${HEADER},operatingHours.Mon,operatingHours.tuesday,operatingHours.SUN`, `${GOOD},"[[""08:00"",""12:00""],[""13:00"",""17:00""]]","[[""9:00 am"",""5:30 pm""]]",`),
      expected: { operatingHours: { Mon: [['08:00', '12:00'], ['13:00', '17:00']], Tue: [['09:00', '17:30']] } },
    },
    {
      name: 'every optional column',
      text: file(
        `${HEADER},enabled,stopDetection,disableAfter,deleteAfter,userId,userIds,ip,dwellThreshold,placeId,address,mode`,
        `${GOOD},false,true,2030-01-01,2030-02-01T10:00:00Z,u0,"u1, u2","10.1.2.*, 2001:DB8::/32",5,pl1,20 Jay St,car`,
      ),
      expected: {
        enabled: false,
        stopDetection: true,
        disableAfter: '2030-01-01T00:00:00.000Z',
        deleteAfter: '2030-02-01T10:00:00.000Z',
        userId: 'u0',
        userIds: ['u1', 'u2'],
        ip: ['10.1.2.*', '2001:db8::/32'],
        dwellThreshold: 5,
        placeId: 'pl1',
        address: '20 Jay St',
      },
    },
    { name: 'coordinates win over address', text: file(`${HEADER},address`, `${GOOD},somewhere else`), expected: { geometryCenter: { type: 'Point', coordinates: [-73.98, 40.7] } } },
    { name: 'trailing commas on every line', text: file(`${HEADER},,`, `${GOOD},,`), expected: { geometryRadius: 100 } },
    { name: 'short row: missing trailing cells are empty', text: file(`${HEADER},metadata.brand,enabled`, GOOD), expected: { enabled: true } },
    { name: 'semicolon-delimited file', text: file('description;type;tag;externalId;coordinates;radius', 'Store;circle;store;1;[-73.98,40.70];100'), expected: { geometryRadius: 100 } },
    { name: 'tab-delimited file', text: file('description\ttype\ttag\texternalId\tcoordinates\tradius', 'Store\tcircle\tstore\t1\t[-73.98,40.70]\t100'), expected: { geometryRadius: 100 } },
  ];
  it.each(cases)('$name', ({ text, expected }) => {
    expect(only(text)).toMatchObject(expected);
  });

  it('keeps file order and reports row and line numbers', () => {
    const { rows, errors } = parseGeofenceCsv(file(HEADER, GOOD, '"Two\nlines",circle,store,2,"[1,2]",50', '', 'Three,circle,store,3,"[1,2]",50'));
    expect(errors).toEqual([]);
    expect(rows.map((r) => [r.row, r.line, r.input.externalId])).toEqual([
      [2, 2, '1'],
      [3, 3, '2'],
      // Row 4 is blank; the multi-line value pushed line numbers one further than rows.
      [5, 6, '3'],
    ]);
  });

  it('does not count a trailing newline or blank trailing rows as data', () => {
    const result = parseGeofenceCsv(`${HEADER}\n${GOOD}\n\n\n`);
    expect(result.errors).toEqual([]);
    expect(result.rows).toHaveLength(1);
  });

  it('accepts a header-only file as zero rows', () => {
    expect(parseGeofenceCsv(file(HEADER))).toEqual({ rows: [], errors: [], errorCount: 0, dataRows: 0 });
  });
});

describe('geofence CSV: quoting and encoding', () => {
  const cases: Array<{ name: string; input: string | Buffer; description: string }> = [
    { name: 'embedded comma', input: file(HEADER, '"Store, Main St",circle,store,1,"[1,2]",100'), description: 'Store, Main St' },
    { name: 'embedded newline', input: file(HEADER, '"Store\nMain St",circle,store,1,"[1,2]",100'), description: 'Store\nMain St' },
    { name: 'embedded CRLF in a CRLF file', input: `${HEADER}\r\n"Store\r\nMain St",circle,store,1,"[1,2]",100\r\n`, description: 'Store\r\nMain St' },
    { name: 'doubled quotes', input: file(HEADER, '"The ""Big"" Store",circle,store,1,"[1,2]",100'), description: 'The "Big" Store' },
    { name: 'text after a closing quote kept literally', input: file(HEADER, '"Store"s,circle,store,1,"[1,2]",100'), description: '"Store"s' },
    { name: 'quote inside an unquoted value', input: file(HEADER, '5" screens,circle,store,1,"[1,2]",100'), description: '5" screens' },
    { name: 'BOM in a string', input: `\ufeff${file(HEADER, 'Store,circle,store,1,"[1,2]",100')}`, description: 'Store' },
    { name: 'UTF-8 BOM in bytes, non-ASCII text', input: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(file(HEADER, 'Café,circle,store,1,"[1,2]",100'))]), description: 'Café' },
    { name: 'UTF-16LE with BOM (Excel Unicode text)', input: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(file(HEADER, 'Café,circle,store,1,"[1,2]",100'), 'utf16le')]), description: 'Café' },
    { name: 'CRLF line endings', input: `${HEADER}\r\nStore,circle,store,1,"[1,2]",100\r\n`, description: 'Store' },
    { name: 'old Mac CR line endings', input: `${HEADER}\rStore,circle,store,1,"[1,2]",100\r`, description: 'Store' },
  ];
  it.each(cases)('$name', ({ input, description }) => {
    expect(only(input).description).toBe(description);
  });
});

type ExpectedError = { row: number; column: string; message: RegExp };

function expectErrors(actual: GeofenceCsvError[], expected: ExpectedError[]): void {
  expect(actual).toEqual(expected.map((e) => ({ row: e.row, column: e.column, message: expect.stringMatching(e.message) })));
}

describe('geofence CSV: header problems', () => {
  const cases: Array<{ name: string; text: string | Buffer; errors: ExpectedError[] }> = [
    { name: 'empty file', text: '', errors: [{ row: 1, column: '', message: /^the file is empty; the first row must be the column headers$/ }] },
    { name: 'blank first row', text: file('', HEADER, GOOD), errors: [{ row: 1, column: '', message: /^row 1 is empty/ }] },
    { name: 'unknown column', text: file(`${HEADER},colour`, `${GOOD},red`), errors: [{ row: 1, column: 'colour', message: /^unknown column "colour"; columns are "description", .*"metadata\.\{key\}"/ }] },
    { name: 'column twice', text: file(`${HEADER},tag`, `${GOOD},x`), errors: [{ row: 1, column: 'tag', message: /^column "tag" appears twice$/ }] },
    { name: 'column twice in different case', text: file(`${HEADER},Radius`, `${GOOD},5`), errors: [{ row: 1, column: 'Radius', message: /^columns "radius" and "Radius" are the same column$/ }] },
    { name: 'unnamed column in the middle', text: file('description,,type,tag,externalId,coordinates,radius', 'Store,x,circle,store,1,"[1,2]",100'), errors: [{ row: 1, column: 'column 2', message: /^column 2 has no name/ }] },
    {
      name: 'required column missing: reported once, not per row',
      text: file('description,type,externalId,coordinates,radius', 'A,circle,1,"[1,2]",100', 'B,circle,2,"[1,2]",100'),
      errors: [{ row: 1, column: 'tag', message: /^required column "tag" is missing$/ }],
    },
    {
      name: 'no location column',
      text: file('description,type,tag,externalId,radius', 'A,circle,t,1,100'),
      errors: [{ row: 1, column: 'coordinates', message: /needs a "coordinates" column/ }],
    },
    {
      name: 'metadata and metadata.{key} together',
      text: file(`${HEADER},metadata,metadata.brand`, `${GOOD},"{""a"":1}",acme`),
      errors: [{ row: 1, column: 'metadata', message: /^"metadata" cannot be combined with "metadata\.\{key\}" columns \("metadata\.brand"\)/ }],
    },
    {
      name: 'operatingHours and operatingHours.{day} together',
      text: file(`${HEADER},operatingHours.mon,operatingHours`, `${GOOD},"[[""08:00"",""17:00""]]",`),
      errors: [{ row: 1, column: 'operatingHours', message: /^"operatingHours" cannot be combined with "operatingHours\.\{day\}" columns \("operatingHours\.mon"\)/ }],
    },
    { name: 'operatingHours.{day} not a day', text: file(`${HEADER},operatingHours.funday`, `${GOOD},`), errors: [{ row: 1, column: 'operatingHours.funday', message: /does not name a day/ }] },
    { name: 'same day twice', text: file(`${HEADER},operatingHours.mon,operatingHours.Monday`, `${GOOD},,`), errors: [{ row: 1, column: 'operatingHours.Monday', message: /^columns "operatingHours\.mon" and "operatingHours\.Monday" are the same column$/ }] },
    { name: 'metadata. without a key', text: file(`${HEADER},metadata.`, `${GOOD},x`), errors: [{ row: 1, column: 'metadata.', message: /needs a key after "metadata\."/ }] },
    {
      name: 'not UTF-8 (Windows-1252 export)',
      text: Buffer.concat([Buffer.from(`${HEADER}\n${GOOD}\nCaf`), Buffer.from([0xe9]), Buffer.from(',circle,store,2,"[1,2]",100\n')]),
      errors: [{ row: 1, column: '', message: /^the file is not UTF-8 text; save it as "CSV UTF-8".*\(first bad byte on line 3\)$/ }],
    },
  ];
  it.each(cases)('$name', ({ text, errors }) => {
    expectErrors(parseGeofenceCsv(text).errors, errors);
  });
});

describe('geofence CSV: row problems', () => {
  const cases: Array<{ name: string; header?: string; row: string; errors: Array<{ column: string; message: RegExp }> }> = [
    { name: 'description empty', row: ',circle,store,1,"[1,2]",100', errors: [{ column: 'description', message: /^description is required$/ }] },
    { name: 'type unknown', row: 'A,square,store,1,"[1,2]",100', errors: [{ column: 'type', message: /^type must be one of circle, polygon, isochrone$/ }] },
    { name: 'type empty', row: 'A,,store,1,"[1,2]",100', errors: [{ column: 'type', message: /^type is required$/ }] },
    { name: 'isochrone', header: `${HEADER},mode`, row: 'A,isochrone,store,1,"[1,2]",10,car', errors: [{ column: 'type', message: /^isochrone geofences need a road network \(an imported extract or a configured routing engine\)$/ }] },
    { name: 'tag empty', row: 'A,circle,,1,"[1,2]",100', errors: [{ column: 'tag', message: /^tag is required$/ }] },
    { name: 'externalId empty', row: 'A,circle,store,,"[1,2]",100', errors: [{ column: 'externalId', message: /^externalId is required$/ }] },
    { name: 'radius below 10', row: 'A,circle,store,1,"[1,2]",9', errors: [{ column: 'radius', message: /^radius must be between 10 and 10000$/ }] },
    { name: 'radius above 10000', row: 'A,circle,store,1,"[1,2]",10000.5', errors: [{ column: 'radius', message: /between 10 and 10000/ }] },
    { name: 'radius with a unit', row: 'A,circle,store,1,"[1,2]",100m', errors: [{ column: 'radius', message: /^radius must be a number$/ }] },
    { name: 'radius missing for a circle', row: 'A,circle,store,1,"[1,2]",', errors: [{ column: 'radius', message: /^radius is required for circle geofences/ }] },
    { name: 'radius column absent', header: 'description,type,tag,externalId,coordinates', row: 'A,circle,store,1,"[1,2]"', errors: [{ column: 'radius', message: /^radius is required for circle geofences/ }] },
    { name: 'coordinates empty', row: 'A,circle,store,1,,100', errors: [{ column: 'coordinates', message: /^coordinates is required/ }] },
    { name: 'coordinates latitude out of range', row: 'A,circle,store,1,"[1,95]",100', errors: [{ column: 'coordinates', message: /latitude must be between -90 and 90/ }] },
    { name: 'polygon ring not closed', row: 'A,polygon,store,1,"[[0,0],[1,0],[1,1],[0,1]]",', errors: [{ column: 'coordinates', message: /^coordinates must be closed/ }] },
    { name: 'polygon ring too short', row: 'A,polygon,store,1,"[[0,0],[1,0],[0,0]]",', errors: [{ column: 'coordinates', message: /at least 4 coordinates, got 3/ }] },
    { name: 'polygon self-intersecting', row: 'A,polygon,store,1,"[[0,0],[1,1],[1,0],[0,1],[0,0]]",', errors: [{ column: 'coordinates', message: /must not intersect itself/ }] },
    { name: 'unquoted coordinates shift the row', row: 'A,circle,store,1,[1,2],100', errors: [{ column: 'column 7', message: /^row has 7 values but the header names 6 columns; a value that contains commas .* must be in double quotes$/ }] },
    {
      name: 'unquoted coordinates with trailing empty cells',
      header: `${HEADER},metadata.brand`,
      row: 'A,circle,store,1,[1,2],100,,',
      errors: [{ column: 'column 8', message: /^row has 9 values but the header names 7 columns/ }],
    },
    { name: 'address only (no geocoder)', header: `${HEADER},address`, row: 'A,circle,store,1,,100,20 Jay St', errors: [{ column: 'address', message: /^address needs a geocoder/ }] },
    { name: 'placeId only (no places)', header: `${HEADER},placeId`, row: 'A,circle,store,1,,100,pl1', errors: [{ column: 'placeId', message: /^placeId "pl1" is not a known place/ }] },
    { name: 'mode unknown', header: `${HEADER},mode`, row: `${GOOD},plane`, errors: [{ column: 'mode', message: /^mode must be one of car, truck, foot, bike$/ }] },
    { name: 'enabled not a boolean', header: `${HEADER},enabled`, row: `${GOOD},maybe`, errors: [{ column: 'enabled', message: /^enabled must be a boolean/ }] },
    { name: 'stopDetection not a boolean', header: `${HEADER},stopDetection`, row: `${GOOD},sometimes`, errors: [{ column: 'stopDetection', message: /^stopDetection must be a boolean/ }] },
    { name: 'metadata not JSON', header: `${HEADER},metadata`, row: `${GOOD},brand=acme`, errors: [{ column: 'metadata', message: /^metadata must be valid JSON$/ }] },
    { name: 'metadata nested value', header: `${HEADER},metadata`, row: `${GOOD},"{""a"":[1]}"`, errors: [{ column: 'metadata', message: /^metadata\.a must be a string, boolean or number$/ }] },
    {
      name: 'metadata.{key}: 17 keys',
      header: `${HEADER},${Array.from({ length: 17 }, (_, i) => `metadata.k${i}`).join(',')}`,
      row: `${GOOD},${Array.from({ length: 17 }, (_, i) => `v${i}`).join(',')}`,
      errors: [{ column: 'metadata.*', message: /at most 16 keys/ }],
    },
    { name: 'operatingHours JSON bad', header: `${HEADER},operatingHours`, row: `${GOOD},"{""Mon"":[[""08:00"",""08:00""]]}"`, errors: [{ column: 'operatingHours', message: /^operatingHours\.Mon opens and closes at 08:00/ }] },
    { name: 'operatingHours.{day} cell bad', header: `${HEADER},operatingHours.Mon,operatingHours.Tue`, row: `${GOOD},"[[""08:00"",""17:00""]]","[[""9"",""17:00""]]"`, errors: [{ column: 'operatingHours.Tue', message: /^operatingHours\.Tue open time "9" is not a time of day/ }] },
    { name: 'operatingHours.{day} not JSON', header: `${HEADER},operatingHours.Mon`, row: `${GOOD},8-5`, errors: [{ column: 'operatingHours.Mon', message: /^operatingHours\.Mon must be a list of \[open, close\] pairs; got "8-5"$/ }] },
    { name: 'ip invalid', header: `${HEADER},ip`, row: `${GOOD},"10.0.0.1, 10.0.0.0/33"`, errors: [{ column: 'ip', message: /^ip entry 2 "10\.0\.0\.0\/33" is not valid/ }] },
    { name: 'dwellThreshold zero', header: `${HEADER},dwellThreshold`, row: `${GOOD},0`, errors: [{ column: 'dwellThreshold', message: /^dwellThreshold must be greater than 0$/ }] },
    { name: 'disableAfter not a date', header: `${HEADER},disableAfter`, row: `${GOOD},next week`, errors: [{ column: 'disableAfter', message: /^disableAfter must be a date/ }] },
    { name: 'deleteAfter not a date', header: `${HEADER},deleteAfter`, row: `${GOOD},31/12/2030`, errors: [{ column: 'deleteAfter', message: /^deleteAfter must be a date/ }] },
    {
      name: 'every problem of one row',
      header: `${HEADER},enabled,ip`,
      row: ',circle,store,1,"[1,2]",5,maybe,nope',
      errors: [
        { column: 'description', message: /required/ },
        { column: 'radius', message: /between 10 and 10000/ },
        { column: 'ip', message: /"nope" is not valid/ },
        { column: 'enabled', message: /boolean/ },
      ],
    },
  ];
  it.each(cases)('$name', ({ header, row, errors }) => {
    const result = parseGeofenceCsv(file(header ?? HEADER, row));
    expectErrors(
      result.errors,
      errors.map((e) => ({ row: 2, ...e })),
    );
    expect(result.rows).toEqual([]);
  });
});

describe('geofence CSV: duplicates, syntax errors, limits', () => {
  it('names both rows of a duplicate (tag, externalId) pair', () => {
    const result = parseGeofenceCsv(
      file(HEADER, GOOD, 'Other,circle,store,2,"[1,2]",100', 'Again,circle,store,1,"[1,2]",200', 'Elsewhere,circle,mall,1,"[1,2]",100', 'Third,circle,store,1,"[1,2]",100'),
    );
    expectErrors(result.errors, [
      { row: 4, column: 'externalId', message: /^rows 2 and 4 both have tag "store" and externalId "1"; each pair may appear only once in a file$/ },
      { row: 6, column: 'externalId', message: /^rows 2 and 6 both have tag "store" and externalId "1"/ },
    ]);
  });

  it('finds duplicates in rows that also have other problems', () => {
    const result = parseGeofenceCsv(file(HEADER, GOOD, 'Bad,circle,store,1,"[1,2]",5'));
    expect(result.errors.map((e) => [e.row, e.column])).toEqual([
      [3, 'radius'],
      [3, 'externalId'],
    ]);
  });

  it('reports an unclosed quote with its row, keeping errors found before it', () => {
    const result = parseGeofenceCsv(file(HEADER, 'A,circle,store,9,"[1,2]",5', '"Two\nlines",circle,store,2,"[1,2]",100', '"Unclosed,circle,store,3,x,100', 'X,circle,store,4,y,100'));
    expectErrors(result.errors, [
      { row: 2, column: 'radius', message: /between 10 and 10000/ },
      { row: 4, column: '', message: /^a quoted value starting in row 4 \(line 5\) is never closed/ },
    ]);
  });

  it('validates rows even when the header has an unknown column (all problems at once)', () => {
    const result = parseGeofenceCsv(file(`${HEADER},colour`, 'A,circle,store,1,"[1,2]",5,red'));
    expect(result.errors.map((e) => [e.row, e.column])).toEqual([
      [1, 'colour'],
      [2, 'radius'],
    ]);
  });

  it('returns the good rows beside the errors, for reporting only', () => {
    const result = parseGeofenceCsv(file(HEADER, GOOD, 'B,circle,store,2,"[1,2]",5'));
    expect(result.rows.map((r) => r.row)).toEqual([2]);
    expect(result.errors).toHaveLength(1);
  });

  it('onRow receives the valid rows in order instead of rows', () => {
    const seen: Array<[number, string | undefined]> = [];
    const result = parseGeofenceCsv(file(HEADER, GOOD, 'B,circle,store,2,"[1,2]",5', 'C,circle,store,3,"[1,2]",50'), {
      onRow: (r) => seen.push([r.row, r.input.externalId]),
    });
    expect(seen).toEqual([
      [2, '1'],
      [4, '3'],
    ]);
    expect(result.rows).toEqual([]);
    expect(result.errors.map((e) => e.row)).toEqual([3]);
  });

  it('keeps at most maxErrors errors and counts the rest', () => {
    const bad = Array.from({ length: 5 }, (_, i) => `B,circle,store,${i},"[1,2]",5`);
    const result = parseGeofenceCsv(file(HEADER, ...bad), { maxErrors: 2 });
    expect(result.errors.map((e) => e.row)).toEqual([2, 3]);
    expect(result.errorCount).toBe(5);
    expect(result.dataRows).toBe(5);
  });
});

describe('geofence CSV: progress and the async entry', () => {
  const many = (n: number): string => file(HEADER, ...Array.from({ length: n }, (_, i) => `S${i},circle,store,${i},"[1,2]",100`));

  it('sync: reports progress per 1000 rows and once at the end', () => {
    const calls: Array<[number, number]> = [];
    const result = parseGeofenceCsv(many(2500), { onProgress: (done, total) => calls.push([done, total]) });
    expect(result.rows).toHaveLength(2500);
    expect(calls).toEqual([
      [1000, 2500],
      [2000, 2500],
      [2500, 2500],
    ]);
  });

  it('async: reports each batch and gives the same result as sync', async () => {
    const calls: Array<[number, number]> = [];
    const text = many(5);
    const result = await parseGeofenceCsvAsync(text, { batchSize: 2, onProgress: (done, total) => calls.push([done, total]) });
    expect(calls).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
    expect(result).toEqual(parseGeofenceCsv(text));
  });

  it('async: reads a stream, even one split inside a character', async () => {
    const bytes = Buffer.from(file(HEADER, 'Café,circle,store,1,"[1,2]",100'));
    const split = bytes.indexOf(0xc3) + 1;
    const result = await parseGeofenceCsvAsync(Readable.from([bytes.subarray(0, split), bytes.subarray(split)]));
    expect(result.errors).toEqual([]);
    expect(result.rows[0].input.description).toBe('Café');
  });

  it('async: stops when aborted', async () => {
    const controller = new AbortController();
    const run = parseGeofenceCsvAsync(many(50), {
      batchSize: 10,
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 20) controller.abort(new Error('client went away'));
      },
    });
    await expect(run).rejects.toThrow('client went away');
  });

  it('async: an empty file reports (0, 0) progress and the header error', async () => {
    const calls: Array<[number, number]> = [];
    const result = await parseGeofenceCsvAsync('', { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls).toEqual([[0, 0]]);
    expect(result.errors).toHaveLength(1);
  });
});
