// One CSV data row → the raw record the shared geofence input rules read, plus the problems only the
// CSV form can have (operatingHours.{day} cells). Cells are trimmed: a
// stray space around a value is never meaningful in a spreadsheet, and it would make "store " and
// "store" different tags.
import { parseOperatingHours } from '../../core/operating-hours';
import type { CsvLayout } from './columns';

export interface CellError {
  column: string;
  message: string;
}

export interface RowRaw {
  raw: Record<string, unknown>;
  errors: CellError[];
}

export function rowToRaw(cells: readonly string[], layout: CsvLayout): RowRaw {
  const raw: Record<string, unknown> = {};
  const errors: CellError[] = [];
  const metadata: Record<string, string> = {};
  let hasMetadata = false;
  const hours: Record<string, unknown> = {};
  let hasHours = false;
  let hoursFailed = false;

  // Cells past the named columns are checked by the caller before a row gets here.
  const n = Math.min(cells.length, layout.width);
  for (let i = 0; i < n; i++) {
    const cell = cells[i].trim();
    if (cell === '') continue;
    const role = layout.roles[i];
    switch (role.kind) {
      case 'field':
        raw[role.field] = cell;
        break;
      case 'metadata':
        // The spec types metadata.{key} cells as strings, so "42" stays "42".
        metadata[role.key] = cell;
        hasMetadata = true;
        break;
      case 'hours': {
        // Parsed per column so a bad cell is reported against its own column.
        const parsed = parseOperatingHours({ [role.written]: cell });
        if (!parsed.ok) {
          errors.push({ column: layout.names[i], message: parsed.message });
          hoursFailed = true;
        } else {
          Object.assign(hours, parsed.value);
          hasHours = true;
        }
        break;
      }
      case 'skip':
        break;
    }
  }
  // Both forms at once is a header error; then neither form is read.
  if (hasMetadata && !layout.reportedInHeader.has('metadata')) raw.metadata = metadata;
  if (hasHours && !hoursFailed && !layout.reportedInHeader.has('operatingHours')) raw.operatingHours = hours;
  return { raw, errors };
}
