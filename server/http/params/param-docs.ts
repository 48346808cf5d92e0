// The OpenAPI side of the parameter readers: each builder takes the same options as its reader
// (scalars.ts), so a route that keeps its limits in one constant documents exactly what it enforces.
import type { ParamDoc } from '../route';
import type { NumberOptions, StringOptions } from '../../../core/input/scalars';

type Extra = Pick<ParamDoc, 'in' | 'required' | 'description'>;

export function stringParam(name: string, opts: StringOptions = {}, extra: Extra = {}): ParamDoc {
  return {
    name, ...extra,
    schema: { type: 'string', maxLength: opts.maxLength ?? 1024, ...(opts.pattern ? { pattern: opts.pattern.source } : {}) },
  };
}

export function numberParam(name: string, opts: NumberOptions = {}, extra: Extra = {}): ParamDoc {
  const schema: Record<string, unknown> = { type: opts.integer ? 'integer' : 'number' };
  if (opts.min !== undefined) schema.minimum = opts.min;
  if (opts.max !== undefined) schema.maximum = opts.max;
  if (opts.greaterThan !== undefined) schema.exclusiveMinimum = opts.greaterThan;
  return { name, ...extra, schema };
}

export function booleanParam(name: string, extra: Extra = {}): ParamDoc {
  return { name, ...extra, schema: { type: 'boolean' } };
}

export function enumParam(name: string, values: readonly string[], extra: Extra = {}): ParamDoc {
  return { name, ...extra, schema: { type: 'string', enum: [...values] } };
}

export function datetimeParam(name: string, extra: Extra = {}): ParamDoc {
  return { name, ...extra, schema: { type: 'string', format: 'date-time' } };
}

/** readList: a comma-separated string (or an array in JSON bodies). */
export function listParam(name: string, extra: Extra = {}): ParamDoc {
  return { name, ...extra, schema: { type: 'string', description: 'comma-separated list' } };
}

/** readMetadata and other JSON objects. */
export function objectParam(name: string, extra: Extra = {}): ParamDoc {
  return { name, ...extra, schema: { type: 'object' } };
}
