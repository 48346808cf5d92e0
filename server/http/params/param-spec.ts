// A route's parameters declared once: each field pairs a reader (scalars.ts, structured.ts…) with the
// JSON Schema of exactly what that reader accepts, so the handler reads its input through the same object
// the OpenAPI document is generated from (http/openapi.ts). A limit changed here changes both.
//
//   const SEARCH = paramSpec('query', { near: latLng().required(), radius: number({ min: 50, max: 20000 }).default(1000) });
//   { method: 'GET', path: '/v1/search/x', auth: 'publishable', ...takes(SEARCH, async (ctx, q) => …q.near…) }
import type { Handler, ParamDoc, ParamSchema, Reply, RequestContext } from '../route';
import { BadRequest } from '../errors';
import {
  isAbsent, readBoolean, readDatetime, readEnum, readList, readNumber, readString,
  type NumberOptions, type StringOptions,
} from '../../../core/input/scalars';
import { readBracketFilters, readDictionary, readLatLng, readMetadata } from '../../../core/input/structured';

/** Reads one parameter from the whole source (most look at source[name]; bracket filters at many keys). */
type SourceReader<T> = (source: Record<string, unknown>, name: string) => T | undefined;

interface FieldOptions<T> {
  required?: boolean;
  fallback?: T;
  description?: string;
  /** OpenAPI serialization of a query object (metadata[key]=value filters). */
  deepObject?: boolean;
  /** A comma-separated list in queries and forms, an array in JSON bodies. */
  list?: boolean;
}

/** One parameter: how to read it and what it accepts. `Always` is true when it always has a value. */
export class Field<T, Always extends boolean = false> {
  constructor(
    private readonly reader: SourceReader<T>,
    readonly schema: ParamSchema,
    readonly options: FieldOptions<T> = {},
  ) {}

  /** Absent → 400 "<name> is required". */
  required(): Field<T, true> {
    return new Field<T, true>(this.reader, this.schema, { ...this.options, required: true });
  }

  /** Absent → this value (documented as the default). */
  default(value: T): Field<T, true> {
    return new Field<T, true>(this.reader, this.schema, { ...this.options, fallback: value });
  }

  describe(description: string): Field<T, Always> {
    return new Field<T, Always>(this.reader, this.schema, { ...this.options, description });
  }

  read(source: Record<string, unknown>, name: string): Always extends true ? T : T | undefined {
    const value = this.reader(source, name) ?? this.options.fallback;
    if (value === undefined && this.options.required) throw new BadRequest(name, `${name} is required`);
    return value as Always extends true ? T : T | undefined;
  }

  doc(name: string, where: 'query' | 'body'): ParamDoc {
    const fallback = this.options.fallback;
    let schema = fallback !== undefined && !(fallback instanceof Set) ? { ...this.schema, default: fallback } : this.schema;
    // The same list is `a,b,c` in a query (OpenAPI form style, not exploded) and an array or that text in a body.
    if (this.options.list && where === 'body') schema = { anyOf: [schema, { type: 'string', description: 'comma-separated' }] };
    return {
      name, in: where,
      ...(this.options.required ? { required: true } : {}),
      ...(this.options.description ? { description: this.options.description } : {}),
      ...(this.options.deepObject ? { style: 'deepObject', explode: true } : {}),
      ...(this.options.list && where === 'query' ? { style: 'form', explode: false } : {}),
      schema,
    };
  }
}

/** A field of a plain value reader (raw, name) → value. */
export function field<T>(read: (raw: unknown, name: string) => T | undefined, schema: ParamSchema): Field<T> {
  return new Field<T>((source, name) => read(source[name], name), schema);
}

export function text(opts: StringOptions = {}): Field<string> {
  return field((raw, name) => readString(raw, name, opts), {
    type: 'string', maxLength: opts.maxLength ?? 1024, ...(opts.pattern ? { pattern: opts.pattern.source } : {}),
  });
}

function numberSchema(opts: NumberOptions): ParamSchema {
  return {
    type: opts.integer ? 'integer' : 'number',
    ...(opts.min !== undefined ? { minimum: opts.min } : {}),
    ...(opts.max !== undefined ? { maximum: opts.max } : {}),
    ...(opts.greaterThan !== undefined ? { exclusiveMinimum: opts.greaterThan } : {}),
  };
}

export function number(opts: NumberOptions = {}): Field<number> {
  return field((raw, name) => readNumber(raw, name, opts), numberSchema(opts));
}

export function integer(opts: Omit<NumberOptions, 'integer'> = {}): Field<number> {
  return number({ ...opts, integer: true });
}

export function flag(): Field<boolean> {
  return field(readBoolean, { type: 'boolean' });
}

export function oneOf<const V extends string>(values: readonly V[]): Field<V> {
  return field((raw, name) => readEnum(raw, name, values), { type: 'string', enum: [...values] });
}

export function datetime(): Field<Date> {
  return field(readDatetime, { type: 'string', format: 'date-time', description: 'a date or an ISO 8601 datetime' });
}

export function list(itemSchema: ParamSchema = { type: 'string' }): Field<string[]> {
  return listOf(readList, itemSchema);
}

/** A list read by its own reader (layers, country codes): documented as an array of `itemSchema`. */
export function listOf<T>(read: (raw: unknown, name: string) => T | undefined, itemSchema: ParamSchema): Field<T> {
  return new Field<T>((source, name) => read(source[name], name), { type: 'array', items: itemSchema }, { list: true });
}

/** "latitude,longitude". */
export function latLng(): Field<[number, number]> {
  return field(readLatLng, { type: 'string', pattern: '^\\s*-?[\\d.]+\\s*,\\s*-?[\\d.]+\\s*$', description: '"latitude,longitude"' });
}

/** Custom metadata: a JSON object (a JSON string in forms and queries) of string, number or boolean values. */
export function metadata(maxKeys: number): Field<Record<string, string | number | boolean>> {
  return field((raw, name) => readMetadata(raw, name, maxKeys), {
    type: 'object', maxProperties: maxKeys,
    additionalProperties: { type: ['string', 'number', 'boolean'] },
    description: `up to ${maxKeys} keys of string, number or boolean values (a JSON string in form bodies)`,
  });
}

export function dictionary(): Field<Record<string, unknown>> {
  return field(readDictionary, { type: 'object', description: 'a JSON object (a JSON string in form bodies)' });
}

/** `name[key]=value` filters (metadata[plan]=pro): true/false → boolean, numeric → number. */
export function bracketFilters(): Field<Record<string, string | number | boolean>> {
  return new Field((source, name) => readBracketFilters(source, name), {
    type: 'object', additionalProperties: { type: 'string' },
  }, { deepObject: true, description: 'filters: name[key]=value' });
}

/** A reader of its own (a list of layers, country codes…) with the schema of what it accepts. */
export function custom<T>(read: (raw: unknown, name: string) => T | undefined, schema: ParamSchema): Field<T> {
  return field((raw, name) => (isAbsent(raw) ? undefined : read(raw, name)), schema);
}

type AnyField = Field<any, boolean>;
type Value<F> = F extends Field<infer T, infer A> ? (A extends true ? T : T | undefined) : never;
export type ParamValues<F extends Record<string, AnyField>> = { [K in keyof F]: Value<F[K]> };

/** The parameters of one route, all in the query string or all in the body. */
export class ParamSpec<F extends Record<string, AnyField>> {
  constructor(readonly where: 'query' | 'body', readonly fields: F) {}

  /** Reads every field in declaration order; the first bad one answers 400. */
  read(source: Record<string, unknown>): ParamValues<F> {
    const out: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(this.fields)) out[name] = f.read(source, name);
    return out as ParamValues<F>;
  }

  /** Reads the request's query or body, whichever this spec describes. */
  readFrom(ctx: Pick<RequestContext, 'query' | 'body'>): ParamValues<F> {
    return this.read(this.where === 'query' ? ctx.query : ctx.body);
  }

  docs(): ParamDoc[] {
    return Object.entries(this.fields).map(([name, f]) => f.doc(name, this.where));
  }

  /** This spec with more fields (shared list cursors, a shared base of a create and an update…). */
  with<G extends Record<string, AnyField>>(more: G): ParamSpec<F & G> {
    return new ParamSpec(this.where, { ...this.fields, ...more });
  }
}

export function paramSpec<F extends Record<string, AnyField>>(where: 'query' | 'body', fields: F): ParamSpec<F> {
  return new ParamSpec(where, fields);
}

/** The route members that make a handler read its input through `spec`, and document it from `spec`. */
export function takes<F extends Record<string, AnyField>>(
  spec: ParamSpec<F>,
  handler: (ctx: RequestContext, input: ParamValues<F>) => Promise<Reply>,
): { input: ParamSpec<F>; handler: Handler } {
  return { input: spec, handler: (ctx) => handler(ctx, spec.readFrom(ctx)) };
}
