// Geofence CSV import: the format of the dashboard upload and of the nightly sync (docs/geofence-import.md).
export {
  parseGeofenceCsv,
  parseGeofenceCsvAsync,
  type GeofenceCsvAsyncOptions,
  type GeofenceCsvError,
  type GeofenceCsvOptions,
  type GeofenceCsvResult,
  type GeofenceCsvRow,
} from './parse-geofence-csv';
export { FIELD_COLUMNS, REQUIRED_COLUMNS, LOCATION_COLUMNS, type FieldColumn } from './columns';
