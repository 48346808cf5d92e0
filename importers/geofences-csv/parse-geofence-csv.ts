// Geofence CSV import (spec: Geofence bulk import file): text → validated geofence inputs, or every
// problem of the file. Pure of HTTP and of the database; callers write nothing when `errors` is not
// empty (all-or-nothing), then upsert `rows` by (tag, externalId).
//
// Row numbers are the ones a spreadsheet shows: the header is row 1, the first data row is row 2,
// a quoted value spanning several lines is still one row, and blank rows count but are skipped.
import { parse as parseCsvSync, type CsvError } from 'csv-parse/sync';
import { collectGeofenceInputErrors, type GeofenceInput, type GeofenceInputOptions } from '../../core/input/geofence-input';
import { readHeader, type CsvLayout } from './columns';
import { decodeCsvInput, detectDelimiter } from './csv-text';
import { rowToRaw } from './row-input';

export interface GeofenceCsvRow {
  /** Spreadsheet row number (header = 1), as in error reports. */
  row: number;
  /** First line of the record in the file (1-based); differs from `row` after multi-line values. */
  line: number;
  input: GeofenceInput;
}

export interface GeofenceCsvError {
  /** Spreadsheet row number; 1 for header and file-level problems. */
  row: number;
  /** The column as the header names it ("radius", "metadata.brand"), or a description ("column 12"). */
  column: string;
  message: string;
}

export interface GeofenceCsvResult {
  /** Valid rows in file order. Meaningful only when `errors` is empty. */
  rows: GeofenceCsvRow[];
  errors: GeofenceCsvError[];
  /** All errors found; larger than errors.length when `maxErrors` cut the list. */
  errorCount: number;
  /** Data rows read (blank rows included), for the caller's summary. */
  dataRows: number;
}

export interface GeofenceCsvOptions {
  /** Called as rows are validated, with data rows done and the total, and once at the end. */
  onProgress?: (done: number, total: number) => void;
  /** Errors kept in the report (default 1000); the rest are only counted. */
  maxErrors?: number;
  /**
   * Receives each valid row as it is validated, in file order, instead of `rows` collecting them
   * (then `rows` is empty). For files too large to hold every geofence in memory: the caller writes
   * into a transaction and rolls it back when the result has errors, since a later row may still fail.
   */
  onRow?: (row: GeofenceCsvRow) => void;
  /** Geometry of a known place for rows with placeId (the gateway's places); absent: coordinates needed. */
  placeShape?: GeofenceInputOptions['placeShape'];
  /** Outline of an isochrone row, computed by `prepareRow` (the gateway's router); absent: isochrones refused. */
  isochroneShape?: GeofenceInputOptions['isochroneShape'];
}

export interface GeofenceCsvAsyncOptions extends GeofenceCsvOptions {
  /** Rows validated between yields to the event loop (default 500). */
  batchSize?: number;
  /** Stops the run between batches; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Turns a row's `address` into `coordinates` and computes an isochrone's outline before the row is
   * checked (the gateway's geocoder and router). A
   * rejection with a `param` and `message` (core's InputError, or the server's BadRequest) is that row's error; others propagate.
   */
  prepareRow?: (raw: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

const DEFAULT_MAX_ERRORS = 1000;
const SYNC_PROGRESS_EVERY = 1000;
const DEFAULT_BATCH_SIZE = 500;

const LINE_BREAKS = /\r\n|\r|\n/g;

/** Line breaks inside a record's values: how many extra physical lines it spans. */
function extraLines(cells: readonly string[]): number {
  let n = 0;
  for (const cell of cells) {
    if (cell.includes('\n') || cell.includes('\r')) n += cell.match(LINE_BREAKS)?.length ?? 0;
  }
  return n;
}

function isCsvError(err: unknown): err is CsvError {
  if (!(err instanceof Error)) return false;
  const code: unknown = (err as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('CSV_');
}

function csvErrorMessage(err: CsvError, row: number, line: number): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `a quoted value starting in row ${row} (line ${line}) is never closed; a value that contains a double quote must write it as ""`;
    default:
      return `the file cannot be read as CSV from row ${row} (line ${line}): ${err.message}`;
  }
}

interface RecordsRead {
  records: string[][];
  /** First physical line of each record. */
  lines: number[];
  /** A syntax error that stopped reading (records before it are kept). */
  syntaxError?: GeofenceCsvError;
}

function csvOptions(text: string) {
  return {
    delimiter: detectDelimiter(text),
    bom: true,
    // Short rows are read as if the missing cells were empty; long rows are reported per row.
    relax_column_count: true,
    // A quote inside an unquoted value ({"a":1} typed by hand) is kept as text, and so is text
    // after a closing quote ("Store"s); only a quote that never closes stops the read.
    relax_quotes: true,
    // Blank rows must still count for row numbers.
    skip_empty_lines: false,
  };
}

function startLines(records: readonly string[][]): number[] {
  const lines: number[] = new Array<number>(records.length);
  let next = 1;
  for (let k = 0; k < records.length; k++) {
    lines[k] = next;
    next += 1 + extraLines(records[k]);
  }
  return lines;
}

function readRecords(text: string): RecordsRead {
  const options = csvOptions(text);
  try {
    const records = parseCsvSync(text, options);
    return { records, lines: startLines(records) };
  } catch (err) {
    if (!isCsvError(err)) throw err;
  }
  // The file is broken somewhere. Read it again keeping each record as it comes, so the rows before
  // the break are still checked; on_record costs about twice the plain parse, hence only here.
  const records: string[][] = [];
  try {
    parseCsvSync(text, {
      ...options,
      on_record: (record: string[]) => {
        records.push(record);
        return null;
      },
    });
  } catch (err) {
    if (!isCsvError(err)) throw err;
    const lines = startLines(records);
    const row = records.length + 1;
    const line = records.length === 0 ? 1 : lines[records.length - 1] + 1 + extraLines(records[records.length - 1]);
    return { records, lines, syntaxError: { row, column: '', message: csvErrorMessage(err, row, line) } };
  }
  throw new Error('geofences-csv: the second read of a broken file succeeded');
}

function isBlank(cells: readonly string[]): boolean {
  return cells.every((c) => c.trim() === '');
}

/** The header name a row error belongs to. */
function columnFor(param: string, layout: CsvLayout): string {
  const named = (layout.fieldColumn as ReadonlyMap<string, string>).get(param);
  if (named !== undefined) return named;
  if (param.startsWith('metadata.') && layout.usesMetadataColumns) {
    const key = param.slice('metadata.'.length);
    const i = layout.roles.findIndex((r) => r.kind === 'metadata' && r.key === key);
    if (i >= 0) return layout.names[i];
  }
  if (param.startsWith('metadata') && layout.fieldColumn.has('metadata')) return layout.fieldColumn.get('metadata') as string;
  if (param === 'metadata' && layout.usesMetadataColumns) return 'metadata.*';
  if (param === 'operatingHours' && layout.usesHoursColumns) return 'operatingHours.*';
  // A rule about a column the file does not have ("radius is required for circle geofences").
  return param;
}

function suppressed(param: string, layout: CsvLayout): boolean {
  for (const p of layout.reportedInHeader) if (param === p || param.startsWith(`${p}.`)) return true;
  return false;
}

/** State of one import; the sync and async entries drive it differently. */
class CsvImport {
  readonly rows: GeofenceCsvRow[] = [];
  readonly errors: GeofenceCsvError[] = [];
  errorCount = 0;
  private readonly firstRowOfPair = new Map<string, number>();

  constructor(
    private readonly records: string[][],
    private readonly lines: number[],
    private readonly layout: CsvLayout | undefined,
    private readonly maxErrors: number,
    private readonly onRow?: (row: GeofenceCsvRow) => void,
    private readonly shapes: Pick<GeofenceInputOptions, 'placeShape' | 'isochroneShape'> = {},
  ) {}

  get total(): number {
    return Math.max(0, this.records.length - 1);
  }

  addError(error: GeofenceCsvError): void {
    this.errorCount++;
    if (this.errors.length < this.maxErrors) this.errors.push(error);
  }

  /** Validates data rows [from, to) (0 = first data row). */
  validate(from: number, to: number): void {
    const layout = this.layout;
    if (!layout) return;
    for (let k = from + 1; k <= to; k++) this.validateRecord(k, layout);
  }

  /**
   * Validates data rows [from, to), each first through `prepareRow` (addresses geocoded, isochrone
   * outlines computed) where it gives an address or is an isochrone.
   */
  async validatePrepared(from: number, to: number, prepareRow: (raw: Record<string, unknown>) => Promise<Record<string, unknown>>): Promise<void> {
    const layout = this.layout;
    if (!layout) return;
    for (let k = from + 1; k <= to; k++) {
      const cells = this.records[k];
      const raw = isBlank(cells) ? undefined : rowToRaw(cells, layout).raw;
      const address = raw?.address;
      const isochrone = typeof raw?.type === 'string' && raw.type.trim().toLowerCase() === 'isochrone';
      if (!raw || ((address === undefined || address === null || address === '') && !isochrone)) {
        this.validateRecord(k, layout);
        continue;
      }
      let placed: Record<string, unknown>;
      try {
        placed = await prepareRow(raw);
      } catch (err) {
        const e = err as { param?: unknown; message?: unknown };
        if (typeof e?.param !== 'string' || typeof e.message !== 'string') throw err;
        this.addError({ row: k + 1, column: columnFor(e.param, layout), message: e.message });
        continue;
      }
      this.validateRecord(k, layout, placed);
    }
  }

  private validateRecord(k: number, layout: CsvLayout, placed?: Record<string, unknown>): void {
    const cells = this.records[k];
    const row = k + 1;
    if (isBlank(cells)) return;
    if (cells.length > layout.width && looksShifted(cells, layout.width)) {
      this.addError({
        row,
        column: `column ${layout.width + 1}`,
        message: `row has ${cells.length} values but the header names ${layout.width} columns; a value that contains commas (coordinates, JSON) must be in double quotes`,
      });
      // Values are shifted against the header, so checking them would only add noise.
      return;
    }
    const before = this.errorCount;
    const { raw: cellRaw, errors: cellErrors } = rowToRaw(cells, layout);
    const raw = placed ?? cellRaw;
    for (const e of cellErrors) this.addError({ row, column: e.column, message: e.message });
    const { value, errors } = collectGeofenceInputErrors(raw, { mode: 'csv', ...this.shapes });
    for (const e of errors) {
      if (!suppressed(e.param, layout)) this.addError({ row, column: columnFor(e.param, layout), message: e.message });
    }
    this.checkDuplicate(raw, row, layout);
    if (value && this.errorCount === before) {
      const valid = { row, line: this.lines[k], input: value };
      if (this.onRow) this.onRow(valid);
      else this.rows.push(valid);
    }
  }

  private checkDuplicate(raw: Record<string, unknown>, row: number, layout: CsvLayout): void {
    const tag = raw.tag;
    const externalId = raw.externalId;
    if (typeof tag !== 'string' || typeof externalId !== 'string') return;
    const key = JSON.stringify([tag, externalId]);
    const first = this.firstRowOfPair.get(key);
    if (first === undefined) {
      this.firstRowOfPair.set(key, row);
      return;
    }
    this.addError({
      row,
      column: layout.fieldColumn.get('externalId') ?? 'externalId',
      message: `rows ${first} and ${row} both have tag ${JSON.stringify(tag)} and externalId ${JSON.stringify(externalId)}; each pair may appear only once in a file`,
    });
  }

  result(): GeofenceCsvResult {
    // Header and syntax errors are found before the rows; the report reads top to bottom.
    const errors = [...this.errors].sort((a, b) => a.row - b.row);
    return { rows: this.rows, errors, errorCount: this.errorCount, dataRows: this.total };
  }
}

/**
 * A row with more cells than named columns whose extra cells hold values, or whose bracketed
 * values were cut apart: an unquoted [lng,lat] or JSON value split at its commas. Extra empty
 * cells alone are only trailing commas.
 */
function looksShifted(cells: readonly string[], width: number): boolean {
  for (let i = width; i < cells.length; i++) if (cells[i].trim() !== '') return true;
  for (let i = 0; i < width; i++) {
    const c = cells[i];
    if (c.includes('[') || c.includes('{') || c.includes(']') || c.includes('}')) {
      if (count(c, '[') !== count(c, ']') || count(c, '{') !== count(c, '}')) return true;
    }
  }
  return false;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/** Decoding, record reading and the header: everything before the rows. */
function prepare(input: string | Buffer, opts: GeofenceCsvOptions): CsvImport {
  const maxErrors = opts.maxErrors ?? DEFAULT_MAX_ERRORS;
  const decoded = decodeCsvInput(input);
  if (!decoded.ok) {
    const run = new CsvImport([], [], undefined, maxErrors, opts.onRow, opts);
    run.addError({ row: 1, column: '', message: `${decoded.message} (first bad byte on line ${decoded.line})` });
    return run;
  }
  const { records, lines, syntaxError } = readRecords(decoded.text);
  let layout: CsvLayout | undefined;
  const header = records[0];
  const headerErrors: GeofenceCsvError[] = [];
  if (!header || isBlank(header)) {
    headerErrors.push({
      row: 1,
      column: '',
      message: header ? 'row 1 is empty; the first row must be the column headers' : 'the file is empty; the first row must be the column headers',
    });
  } else {
    layout = readHeader(header);
    for (const e of layout.errors) headerErrors.push({ row: 1, column: e.column, message: e.message });
  }
  const run = new CsvImport(records, lines, layout, maxErrors, opts.onRow, opts);
  for (const e of headerErrors) run.addError(e);
  if (syntaxError) run.addError(syntaxError);
  return run;
}

/**
 * Reads and validates a geofence CSV in one go. Every problem is reported with its spreadsheet row
 * and column; `rows` holds the validated inputs. Callers must write nothing when `errors` is
 * non-empty.
 *
 * @example
 * const { rows, errors } = parseGeofenceCsv('description,type,tag,externalId,coordinates,radius\n' +
 *   'Store,circle,store,1,"[-73.98,40.70]",100\n');
 * // rows[0].input.geometryRadius === 100, errors is []
 */
export function parseGeofenceCsv(input: string | Buffer, opts: GeofenceCsvOptions = {}): GeofenceCsvResult {
  const run = prepare(input, opts);
  const total = run.total;
  for (let done = 0; done < total; ) {
    const next = Math.min(total, done + SYNC_PROGRESS_EVERY);
    run.validate(done, next);
    done = next;
    if (done < total) opts.onProgress?.(done, total);
  }
  opts.onProgress?.(total, total);
  return run.result();
}

async function collectBytes(input: AsyncIterable<string | Buffer | Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Same result as parseGeofenceCsv, validating in batches and yielding to the event loop between
 * them, so a CLI can repaint its progress bar and a server stays responsive. Accepts a stream (any
 * async iterable of chunks, e.g. a file or HTTP response); it is read whole before parsing, since
 * the header must be known and row numbers need the full file.
 */
export async function parseGeofenceCsvAsync(
  input: string | Buffer | AsyncIterable<string | Buffer | Uint8Array>,
  opts: GeofenceCsvAsyncOptions = {},
): Promise<GeofenceCsvResult> {
  const text = typeof input === 'string' || Buffer.isBuffer(input) ? input : await collectBytes(input);
  opts.signal?.throwIfAborted();
  const run = prepare(text, opts);
  const total = run.total;
  const batch = Math.max(1, opts.batchSize ?? DEFAULT_BATCH_SIZE);
  for (let done = 0; done < total; ) {
    const next = Math.min(total, done + batch);
    if (opts.prepareRow) await run.validatePrepared(done, next, opts.prepareRow);
    else run.validate(done, next);
    done = next;
    opts.onProgress?.(done, total);
    await yieldToEventLoop();
    opts.signal?.throwIfAborted();
  }
  if (total === 0) opts.onProgress?.(0, 0);
  return run.result();
}
