// Building blocks of the response schemas in the OpenAPI document (JSON Schema 2020-12, OpenAPI 3.1).
// Objects are closed by default (additionalProperties: false): the HTTP tests validate every real answer
// against the document (test/support/openapi-check.ts), so a field the server sends and the document does
// not name fails a test instead of going undocumented. Open an object only where its keys are data
// (metadata, settings written by the caller).
export type Schema = Record<string, unknown>;

/** What a route answers on success, and the error statuses it may give beyond the usual set. */
export interface ResponseDoc {
  /** Success status; 200 unless said. */
  status?: number;
  /** A second success status with the same body schema (202 when work continues in the background). */
  alsoStatus?: number;
  /** The fields beside meta. */
  body?: Record<string, Schema>;
  /** Fields of `body` that may be absent (all others are always there). */
  optional?: string[];
  /** Schema of body fields whose names are data (none allowed unless given). */
  extra?: Schema;
  /** Extra fields of a success meta (hasMore on lists). */
  meta?: Record<string, Schema>;
  /** Fields a 400 of this route carries beside meta (an import's list of row problems). */
  errorBody?: Record<string, Schema>;
  /** Statuses beyond 400/401/403/404/413/415/429 as they apply (409 conflicts, 503 engines…). */
  errors?: number[];
}

/** The definition a component reference carries; the generator hoists it into components.schemas. */
export const COMPONENT = Symbol('component definition');

/** A named schema: `$ref`s to it in the document, defined once under components.schemas. */
export function component(name: string, schema: Schema): Schema {
  return { $ref: `#/components/schemas/${name}`, [COMPONENT]: { name, schema } };
}

export interface ObjectOptions {
  /** Properties that may be absent. */
  optional?: readonly string[];
  /** Schema of keys not listed (default: none allowed). */
  extra?: Schema;
  description?: string;
}

/** An object whose listed properties are all present unless named optional, and nothing else. */
export function object(properties: Record<string, Schema>, opts: ObjectOptions = {}): Schema {
  const optional = new Set(opts.optional ?? []);
  const required = Object.keys(properties).filter((k) => !optional.has(k));
  return {
    type: 'object',
    ...(opts.description ? { description: opts.description } : {}),
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: opts.extra ?? false,
  };
}

/** All properties optional: an object of which any subset appears. */
export function partial(properties: Record<string, Schema>, opts: Omit<ObjectOptions, 'optional'> = {}): Schema {
  return object(properties, { ...opts, optional: Object.keys(properties) });
}

export function arrayOf(items: Schema): Schema {
  return { type: 'array', items };
}

export function nullable(schema: Schema): Schema {
  return { anyOf: [schema, { type: 'null' }] };
}

export function values(...choices: Array<string | number>): Schema {
  return { enum: choices };
}

export function described(schema: Schema, description: string): Schema {
  return { ...schema, description };
}

export const STRING: Schema = { type: 'string' };
export const NUMBER: Schema = { type: 'number' };
export const INTEGER: Schema = { type: 'integer' };
export const BOOLEAN: Schema = { type: 'boolean' };
/** Any JSON value (passed through from the caller or an engine). */
export const ANY: Schema = {};
/** 24 lowercase hex characters, as Radar's ids. */
export const ID: Schema = { type: 'string', pattern: '^[0-9a-f]{24}$' };
/** ISO 8601 UTC with milliseconds: the iOS SDK rejects dates without them. */
export const DATETIME: Schema = { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' };
/** [longitude, latitude]. */
export const LNG_LAT: Schema = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 };
export const POINT: Schema = component('Point', object({ type: { const: 'Point' }, coordinates: LNG_LAT }));
/** Custom metadata: string, number or boolean values. */
export const METADATA: Schema = component('Metadata', { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } });
/** An object whose keys are data the caller wrote (settings, raw engine answers). */
export const OPEN_OBJECT: Schema = { type: 'object' };
