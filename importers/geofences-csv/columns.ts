// The header row of a geofence CSV (spec: Geofence bulk import file): which column feeds which
// geofence field, and the file-level problems (unknown, duplicate or missing columns, both forms of
// metadata or operating hours). Column names are matched without regard to case or surrounding
// spaces, because spreadsheets and their users are loose about both.
import type { DayKey } from '../../core/types';
import { normalizeDayKey } from '../../core/operating-hours';

/** Columns that map one-to-one onto a geofence input field of the same name. */
export const FIELD_COLUMNS = [
  'description',
  'type',
  'tag',
  'externalId',
  'coordinates',
  'address',
  'radius',
  'mode',
  'enabled',
  'metadata',
  'operatingHours',
  'stopDetection',
  'disableAfter',
  'deleteAfter',
  'userId',
  'userIds',
  'ip',
  'dwellThreshold',
  'placeId',
] as const;
export type FieldColumn = (typeof FIELD_COLUMNS)[number];

export const REQUIRED_COLUMNS: readonly FieldColumn[] = ['description', 'type', 'tag', 'externalId'];
/** At least one of these must be present for a row to have a location. */
export const LOCATION_COLUMNS: readonly FieldColumn[] = ['coordinates', 'address', 'placeId'];

const METADATA_PREFIX = 'metadata.';
const HOURS_PREFIX = 'operatinghours.';

export type ColumnRole =
  | { kind: 'field'; field: FieldColumn }
  | { kind: 'metadata'; key: string }
  /** `written` is the day as the header wrote it, so messages name the column the user sees. */
  | { kind: 'hours'; day: DayKey; written: string }
  /** Unknown, duplicate or unnamed trailing columns: reported once in the header, skipped in rows. */
  | { kind: 'skip' };

export interface HeaderError {
  column: string;
  message: string;
}

export interface CsvLayout {
  /** Header names as written (trimmed), one per column. */
  names: string[];
  roles: ColumnRole[];
  /** Columns the rows cannot be read without (empty header cells past the last named column excluded). */
  width: number;
  /** Header cell for a field, for attributing row errors to the column the user sees. */
  fieldColumn: Map<FieldColumn, string>;
  usesMetadataColumns: boolean;
  usesHoursColumns: boolean;
  /**
   * Parameters whose problem the header already explains (a missing required column, both forms of
   * metadata): row errors for them would repeat it on every row, so they are dropped.
   */
  reportedInHeader: Set<string>;
  errors: HeaderError[];
}

const FIELD_BY_LOWER: ReadonlyMap<string, FieldColumn> = new Map(FIELD_COLUMNS.map((f) => [f.toLowerCase(), f]));

function columnList(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/** Reads the header row. Never throws; every problem becomes a HeaderError. */
export function readHeader(cells: readonly string[]): CsvLayout {
  const names = cells.map((c) => c.trim());
  // Exports often end every line with a comma; unnamed columns at the end carry nothing.
  let width = names.length;
  while (width > 0 && names[width - 1] === '') width--;

  const layout: CsvLayout = {
    names,
    roles: [],
    width,
    fieldColumn: new Map(),
    usesMetadataColumns: false,
    usesHoursColumns: false,
    reportedInHeader: new Set(),
    errors: [],
  };
  const seen = new Map<string, string>();
  const claim = (identity: string, name: string): boolean => {
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      layout.errors.push({
        column: name,
        message: earlier === name ? `column "${name}" appears twice` : `columns "${earlier}" and "${name}" are the same column`,
      });
      return false;
    }
    seen.set(identity, name);
    return true;
  };

  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const lower = name.toLowerCase();
    let role: ColumnRole = { kind: 'skip' };
    if (i >= width) {
      // Trailing unnamed column; rows must leave it empty (checked per row).
    } else if (name === '') {
      layout.errors.push({ column: `column ${i + 1}`, message: `column ${i + 1} has no name in the header row` });
    } else if (FIELD_BY_LOWER.has(lower)) {
      const field = FIELD_BY_LOWER.get(lower) as FieldColumn;
      if (claim(field, name)) {
        role = { kind: 'field', field };
        layout.fieldColumn.set(field, name);
      }
    } else if (lower.startsWith(METADATA_PREFIX)) {
      const key = name.slice(METADATA_PREFIX.length);
      if (key.trim() === '') {
        layout.errors.push({ column: name, message: `column "${name}" needs a key after "metadata." (e.g. "metadata.brand")` });
      } else if (claim(`metadata.${key}`, name)) {
        role = { kind: 'metadata', key };
        layout.usesMetadataColumns = true;
      }
    } else if (lower.startsWith(HOURS_PREFIX)) {
      const written = name.slice(HOURS_PREFIX.length);
      const day = normalizeDayKey(written);
      if (!day) {
        layout.errors.push({
          column: name,
          message: `column "${name}" does not name a day; use a day name or its three-letter abbreviation (e.g. "operatingHours.Mon")`,
        });
      } else if (claim(`operatingHours.${day}`, name)) {
        role = { kind: 'hours', day, written };
        layout.usesHoursColumns = true;
      }
    } else {
      layout.errors.push({
        column: name,
        message: `unknown column "${name}"; columns are ${columnList(FIELD_COLUMNS)}, "metadata.{key}" and "operatingHours.{day}"`,
      });
    }
    layout.roles.push(role);
  }

  for (const field of REQUIRED_COLUMNS) {
    if (!layout.fieldColumn.has(field)) {
      layout.errors.push({ column: field, message: `required column "${field}" is missing` });
      layout.reportedInHeader.add(field);
    }
  }
  if (!LOCATION_COLUMNS.some((f) => layout.fieldColumn.has(f))) {
    layout.errors.push({
      column: 'coordinates',
      message: `the file needs a "coordinates" column (or "address" / "placeId") to place the geofences`,
    });
    for (const f of LOCATION_COLUMNS) layout.reportedInHeader.add(f);
  }
  if (layout.usesMetadataColumns && layout.fieldColumn.has('metadata')) {
    const examples = layout.roles.flatMap((r, i) => (r.kind === 'metadata' ? [names[i]] : [])).slice(0, 3);
    layout.errors.push({
      column: layout.fieldColumn.get('metadata') as string,
      message: `"metadata" cannot be combined with "metadata.{key}" columns (${columnList(examples)}); use one form`,
    });
    layout.reportedInHeader.add('metadata');
  }
  if (layout.usesHoursColumns && layout.fieldColumn.has('operatingHours')) {
    const examples = layout.roles.flatMap((r, i) => (r.kind === 'hours' ? [names[i]] : [])).slice(0, 3);
    layout.errors.push({
      column: layout.fieldColumn.get('operatingHours') as string,
      message: `"operatingHours" cannot be combined with "operatingHours.{day}" columns (${columnList(examples)}); use one form`,
    });
    layout.reportedInHeader.add('operatingHours');
  }
  return layout;
}
