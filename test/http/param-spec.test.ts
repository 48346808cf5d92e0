// param-spec.ts: one declaration reads a request's parameters and documents them. The reading must be the
// readers' (same messages, same limits) and the document must say what the reading enforces.
import { apiErrorOf } from '../../server/http/errors';
import { bracketFilters, flag, integer, latLng, list, number, oneOf, paramSpec, takes, text } from '../../server/http/params/param-spec';

const SPEC = paramSpec('query', {
  near: latLng().required(),
  radius: number({ min: 50, max: 20000 }).default(1000).describe('metres'),
  limit: integer({ min: 1, max: 100 }),
  mode: oneOf(['car', 'foot']),
  tags: list(),
  name: text({ maxLength: 4 }),
  exact: flag(),
  metadata: bracketFilters(),
});

function badParam(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    const known = apiErrorOf(err);
    return known?.status === 400 ? `${known.param}: ${known.message}` : String(err);
  }
  return undefined;
}

test('reads typed values, applies defaults and leaves absent optional ones undefined', () => {
  const v = SPEC.read({ near: '40.7,-73.9', tags: 'a, b', 'metadata[plan]': 'pro', 'metadata[n]': '3', exact: 'true' });
  expect(v).toEqual({ near: [-73.9, 40.7], radius: 1000, limit: undefined, mode: undefined, tags: ['a', 'b'], name: undefined, exact: true, metadata: { plan: 'pro', n: 3 } });
});

test('refuses what the readers refuse, naming the parameter', () => {
  expect(badParam(() => SPEC.read({}))).toBe('near: near is required');
  expect(badParam(() => SPEC.read({ near: '40,-73', radius: '49' }))).toBe('radius: radius must be between 50 and 20000');
  expect(badParam(() => SPEC.read({ near: '40,-73', limit: '1.5' }))).toBe('limit: limit must be an integer');
  expect(badParam(() => SPEC.read({ near: '40,-73', mode: 'boat' }))).toBe('mode: mode must be one of car, foot');
  expect(badParam(() => SPEC.read({ near: '40,-73', name: 'toolong' }))).toBe('name: name must be at most 4 characters');
});

test('documents each field with the limits it enforces', () => {
  const docs = Object.fromEntries(SPEC.docs().map((d) => [d.name, d]));
  expect(docs.near).toMatchObject({ in: 'query', required: true, schema: { type: 'string' } });
  expect(docs.radius).toEqual({ name: 'radius', in: 'query', description: 'metres', schema: { type: 'number', minimum: 50, maximum: 20000, default: 1000 } });
  expect(docs.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
  expect(docs.mode.schema).toEqual({ type: 'string', enum: ['car', 'foot'] });
  expect(docs.tags).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } });
  expect(docs.name.schema).toEqual({ type: 'string', maxLength: 4 });
  expect(docs.metadata).toMatchObject({ style: 'deepObject', explode: true, schema: { type: 'object' } });
  // In a body the same list may be an array or comma-separated text.
  const body = paramSpec('body', { tags: list() }).docs()[0];
  expect(body.schema).toEqual({ anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string', description: 'comma-separated' }] });
});

test('takes() hands the handler what the spec read, from the query or the body as the spec says', async () => {
  const route = takes(paramSpec('body', { n: integer().required() }), async (_ctx, input) => ({ body: { twice: input.n * 2 } }));
  const ctx = { query: { n: '1' }, body: { n: '21' } } as never;
  expect(await route.handler(ctx)).toEqual({ body: { twice: 42 } });
  expect(route.input.docs()[0]).toMatchObject({ name: 'n', in: 'body', required: true });
});
