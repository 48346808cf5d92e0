// A geofence CSV import: validate the whole file, then write it in one Store write, or write nothing.
// Rows are upserted by (tag, externalId): an existing geofence keeps its _id and createdAt, so its
// events, presence rows and trips stay attached. Used by the HTTP upload, the CLI and the nightly
// sync alike. Geofences missing from the file are left as they are (an import never deletes).
import type { Scope, Store } from '../../../ports/store';
import { parseGeofenceCsvAsync, type GeofenceCsvError, type GeofenceCsvRow } from '../../../importers/geofences-csv';
import type { Geofence } from '../../../core/types';
import type { Geofences } from '../../../ports/geofences';
import { GEOFENCES } from '../../api/collections';

export interface ImportOptions {
  /** Data rows validated so far, and the total; then the write, as ('write', 0, n) and ('write', n, n). */
  onProgress?: (phase: 'validate' | 'write', done: number, total: number) => void;
  /** Problems kept in the report (errorCount counts them all). Default: every one. */
  maxErrors?: number;
  signal?: AbortSignal;
  /** The import's time: createdAt of new geofences, updatedAt of all. */
  now?: Date;
}

export interface ImportReport {
  /** True when the file was valid and written. */
  ok: boolean;
  /** Data rows in the file, blank ones included. */
  dataRows: number;
  /** Geofences written: created + updated. */
  imported: number;
  created: number;
  updated: number;
  /** Every problem (up to maxErrors), ordered by row. Empty when ok. */
  errors: GeofenceCsvError[];
  errorCount: number;
}

/** Up to this many rows, existing geofences are looked up one by one; past it, the scope is scanned once. */
const LOOKUP_ONE_BY_ONE_MAX = 256;

type Existing = Pick<Geofence, '_id' | 'createdAt' | 'updatedAt'>;

function pairKey(tag: string, externalId: string): string {
  return JSON.stringify([tag, externalId]);
}

/** Line feeds in the file: an upper bound of its rows (quoted values may hold line breaks too). */
function countLines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? n + 1 : n;
}

async function readAll(input: string | Buffer | AsyncIterable<string | Buffer | Uint8Array>): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input;
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function tooManyRows(rows: number, maxRows: number, counted: 'lines' | 'rows'): GeofenceCsvError {
  return {
    row: 1,
    column: '',
    message: `the file has ${rows} ${counted === 'lines' ? 'lines after the header' : 'data rows'}; one import takes at most ${maxRows} rows (WAYMARK_IMPORT_MAX_ROWS): split it into several files`,
  };
}

export class GeofenceImporter {
  /**
   * `maxRows` bounds one import: every geofence of a file is held in memory until the write (about
   * 7.5 KB per circle row at the peak), so an unbounded file could take the gateway down.
   */
  constructor(
    private readonly store: Store,
    private readonly geofences: Geofences,
    private readonly maxRows = 200_000,
  ) {}

  /**
   * Imports a geofence CSV into one project environment. Imports of the same environment run one at a
   * time (two at once could both create the same new (tag, externalId)).
   */
  async importCsv(scope: Scope, input: string | Buffer | AsyncIterable<string | Buffer | Uint8Array>, opts: ImportOptions = {}): Promise<ImportReport> {
    const bytes = await readAll(input);
    // Checked before parsing: parsing is where the memory goes. Quoted line breaks make this a bound, so
    // the exact count is checked again after.
    const lines = Math.max(0, countLines(bytes) - 1);
    if (lines > this.maxRows) {
      return { ok: false, dataRows: lines, imported: 0, created: 0, updated: 0, errors: [tooManyRows(lines, this.maxRows, 'lines')], errorCount: 1 };
    }
    const parsed = await parseGeofenceCsvAsync(bytes, {
      maxErrors: opts.maxErrors ?? Number.MAX_SAFE_INTEGER,
      signal: opts.signal,
      onProgress: opts.onProgress ? (done, total) => opts.onProgress?.('validate', done, total) : undefined,
      batchSize: 2000,
      // Rows given by address are geocoded to their centre, isochrones get their outline from the router.
      prepareRow: (raw) => this.geofences.prepareBody(raw),
      placeShape: this.geofences.placeShape,
      isochroneShape: this.geofences.isochroneShape,
    });
    if (parsed.dataRows > this.maxRows) {
      return { ok: false, dataRows: parsed.dataRows, imported: 0, created: 0, updated: 0, errors: [tooManyRows(parsed.dataRows, this.maxRows, 'rows')], errorCount: 1 };
    }
    const base = { dataRows: parsed.dataRows, errors: parsed.errors, errorCount: parsed.errorCount };
    if (parsed.errorCount > 0) return { ok: false, imported: 0, created: 0, updated: 0, ...base };
    opts.signal?.throwIfAborted();
    const now = opts.now ?? new Date();
    return this.store.withLock(`geofence-import:${scope.projectId}:${scope.live ? 'live' : 'test'}`, async () => {
      const existing = await this.existing(scope, parsed.rows);
      const built: Geofence[] = new Array<Geofence>(parsed.rows.length);
      let updated = 0;
      for (let i = 0; i < parsed.rows.length; i++) {
        const { input: row } = parsed.rows[i];
        // The parser requires both in CSV mode; a row without them never reaches here.
        const tag = row.tag as string;
        const externalId = row.externalId as string;
        const found = existing.get(pairKey(tag, externalId));
        if (found) updated++;
        built[i] = this.geofences.build(scope, row, tag, externalId, found as Geofence | undefined, now);
      }
      opts.onProgress?.('write', 0, built.length);
      // GeofenceService.save is one atomic Store write, then the in-memory index: track sees the new
      // geofences as soon as this returns.
      if (built.length > 0) await this.geofences.save(scope, built);
      opts.onProgress?.('write', built.length, built.length);
      return { ok: true, imported: built.length, created: built.length - updated, updated, ...base };
    });
  }

  private async existing(scope: Scope, rows: readonly GeofenceCsvRow[]): Promise<Map<string, Existing>> {
    const found = new Map<string, Existing>();
    if (rows.length <= LOOKUP_ONE_BY_ONE_MAX) {
      for (const { input } of rows) {
        const g = await this.geofences.findByKey(scope, input.tag as string, input.externalId as string);
        if (g) found.set(pairKey(g.tag, g.externalId), { _id: g._id, createdAt: g.createdAt, updatedAt: g.updatedAt });
      }
      return found;
    }
    const wanted = new Set(rows.map(({ input }) => pairKey(input.tag as string, input.externalId as string)));
    await this.store.scan(GEOFENCES, scope, (docs) => {
      for (const d of docs) {
        const key = pairKey(String(d.tag), String(d.externalId));
        // findByKey answers the newest of duplicates; keep the same one here.
        const seen = found.get(key);
        if (wanted.has(key) && (!seen || d.updatedAt > seen.updatedAt)) {
          found.set(key, { _id: d._id, createdAt: d.createdAt, updatedAt: d.updatedAt });
        }
      }
    });
    return found;
  }
}
