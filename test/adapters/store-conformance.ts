// What every Store adapter must do, written against the port alone (ports/store.ts). An adapter's
// test file calls storeConformance(name, makeStore); the SQLite adapter runs it today and the PostgreSQL
// adapter joins with one more call.
//
// Each test uses its own project ids and collection names, so an adapter may hand out stores over one
// shared database (PostgreSQL) as well as a fresh one per test (SQLite).
import { randomBytes } from 'node:crypto';
import { collection as handle, put, remove, type ApiKeyRecord, type Collection, type CollectionSpec, type Doc, type DocBase, type ProjectRecord, type Scope, type Store } from '../../ports/store';
import { named } from '../support/named-collection';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** A timestamp `seconds` after a fixed origin, as the gateway writes them. */
export function at(seconds: number): string {
  return new Date(T0 + seconds * 1000).toISOString();
}

function uid(): string {
  return randomBytes(6).toString('hex');
}

/** A 24-hex id that sorts by `n`. */
function idOf(n: number): string {
  return n.toString(16).padStart(24, '0');
}

function doc(n: number, fields: Record<string, unknown> = {}, created = n, updated = created): Doc {
  return { _id: idOf(n), createdAt: at(created), updatedAt: at(updated), ...fields };
}

const ids = (docs: Doc[]): string[] => docs.map((d) => d._id);

// Refusals are checked with rejects.toBeDefined(), not toThrow(): a database driver's error may be built by
// a native addon with the Error of another test file's realm (jest workers reuse addons), which toThrow()
// does not recognise as an error.

export function storeConformance(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store conformance: ${name}`, () => {
    let store: Store;
    let scope: Scope;
    let otherProject: Scope;
    let otherEnv: Scope;

    beforeEach(async () => {
      store = await makeStore();
      const projectId = `p${uid()}`;
      scope = { projectId, live: false };
      otherEnv = { projectId, live: true };
      otherProject = { projectId: `p${uid()}`, live: false };
    });

    afterEach(async () => {
      await store.close();
    });

    /** Defines a collection under a name of its own. */
    async function collection(spec: CollectionSpec = { keys: ['tag', 'externalId'] }): Promise<Collection<Doc>> {
      const c = handle<Doc>(`c_${uid()}`, spec);
      await store.define(c);
      return c;
    }

    async function putAll(c: Collection<Doc>, s: Scope, docs: Doc[]): Promise<void> {
      await store.write(docs.map((d) => put(c, s, d)));
    }

    describe('define, put, get, delete', () => {
      test('a document comes back as it was put, nested values and all', async () => {
        const c = await collection();
        const d = doc(1, {
          tag: 'store', externalId: 'ext', enabled: false, n: 1.5, zero: 0, empty: '', nothing: null,
          geometry: { type: 'Point', coordinates: [-73.9857, 40.7484] }, list: [1, 'two', { three: 3 }],
          text: 'Zürich “quoted” \'single\' \\ 東京 🚀', metadata: { a: 1, b: 'x', c: true },
        });
        await putAll(c, scope, [d]);
        expect(await store.get(c, scope, d._id)).toEqual(d);
      });

      test('a typed handle reads and writes what a name does: put(), remove() and every read', async () => {
        interface Shelf extends DocBase { tag: string; externalId: string; slots: number[]; location: { type: 'Point'; coordinates: [number, number] } }
        const shelves = handle<Shelf>(`c_${uid()}`, { keys: ['tag', 'externalId'], point: 'location', due: 'updatedAt' });
        await store.define(shelves);
        const s: Shelf = { _id: idOf(7), createdAt: at(1), updatedAt: at(2), tag: 'a', externalId: 'x', slots: [1, 2], location: { type: 'Point', coordinates: [2, 3] } };
        await store.write([put(shelves, scope, s)]);
        const got: Shelf | undefined = await store.get(shelves, scope, s._id);
        expect(got?.slots).toEqual([1, 2]);
        expect(await store.findOne(shelves, scope, { externalId: 'x' })).toEqual(s);
        expect(await store.findRef(shelves, scope, { externalId: 'x' })).toEqual({ id: s._id, rev: undefined });
        expect((await store.list(shelves, scope, { limit: 5, sortBy: 'createdAt' })).docs.map((d) => d.tag)).toEqual(['a']);
        expect(await store.count(shelves, scope, { limit: 5, sortBy: 'createdAt' })).toBe(1);
        expect((await store.within(shelves, scope, { minLng: 1, minLat: 2, maxLng: 3, maxLat: 4 }, 5)).map((d) => d.location.coordinates)).toEqual([[2, 3]]);
        const scanned: Shelf[] = [];
        await store.scan(shelves, scope, (docs) => scanned.push(...docs));
        expect(scanned).toEqual([s]);
        expect((await store.due(shelves, at(5), 10)).filter((d) => d.scope.projectId === scope.projectId).map((d) => d.doc.externalId)).toEqual(['x']);
        expect(await store.scopes(shelves)).toEqual([scope]);
        await store.write([remove(shelves, scope, s._id)]);
        expect(await store.get(shelves, scope, s._id)).toBeUndefined();
      });

      test('define twice with the same spec is harmless', async () => {
        const c = await collection();
        await store.define(c);
        await putAll(c, scope, [doc(1, { tag: 't' })]);
        expect(await store.findOne(c, scope, { tag: 't' })).toEqual(doc(1, { tag: 't' }));
      });

      test('an unknown id, or an id of another scope or collection, is absent', async () => {
        const c = await collection();
        const c2 = await collection();
        await putAll(c, scope, [doc(1)]);
        const got = await Promise.all([
          store.get(c, scope, idOf(2)),
          store.get(c, otherEnv, idOf(1)),
          store.get(c, otherProject, idOf(1)),
          store.get(c2, scope, idOf(1)),
        ]);
        expect(got).toEqual([undefined, undefined, undefined, undefined]);
      });

      test('the same id in two scopes is two documents', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1, { where: 'test' })]);
        await putAll(c, otherEnv, [doc(1, { where: 'live' })]);
        await putAll(c, otherProject, [doc(1, { where: 'other' })]);
        const got = await Promise.all([scope, otherEnv, otherProject].map((s) => store.get(c, s, idOf(1))));
        expect(got.map((d) => d?.where)).toEqual(['test', 'live', 'other']);
      });

      test('put on an existing id replaces the document (fields not sent are gone)', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1, { tag: 'a', extra: true })]);
        await putAll(c, scope, [doc(1, { tag: 'b' }, 1, 5)]);
        expect(await store.get(c, scope, idOf(1))).toEqual(doc(1, { tag: 'b' }, 1, 5));
        expect(ids((await store.list(c, scope, { limit: 10, sortBy: 'createdAt' })).docs)).toEqual([idOf(1)]);
      });

      test('delete removes; deleting what is not there is no error', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1), doc(2)]);
        await store.write([
          remove(c, scope, idOf(1)),
          remove(c, scope, idOf(99)),
          remove(c, otherEnv, idOf(2)),
        ]);
        expect([await store.get(c, scope, idOf(1)), (await store.get(c, scope, idOf(2)))?._id]).toEqual([undefined, idOf(2)]);
      });

      test('an empty write is a no-op', async () => {
        await expect(store.write([])).resolves.toBeUndefined();
      });

      test('writing to a collection never defined is refused', async () => {
        await expect(store.write([{ op: 'put', collection: `never_${uid()}`, scope, doc: doc(1) }])).rejects.toBeDefined();
      });
    });

    describe('findOne', () => {
      test('by one indexed key, by two, and no match', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1, { tag: 'a', externalId: 'x' }), doc(2, { tag: 'a', externalId: 'y' }), doc(3, { tag: 'b', externalId: 'x' })]);
        const rows: Array<[string, Record<string, string>, string | undefined]> = [
          ['tag and externalId', { tag: 'a', externalId: 'y' }, idOf(2)],
          ['other pair', { tag: 'b', externalId: 'x' }, idOf(3)],
          ['no such pair', { tag: 'b', externalId: 'y' }, undefined],
          ['no such tag', { tag: 'c' }, undefined],
          ['values are exact, not prefixes', { tag: 'a', externalId: '' }, undefined],
        ];
        const got = [];
        for (const [label, match] of rows) got.push([label, (await store.findOne(c, scope, match))?._id]);
        expect(got).toEqual(rows.map(([label, , want]) => [label, want]));
      });

      test('several matches: the most recently updated', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1, { tag: 'a' }, 1, 30), doc(2, { tag: 'a' }, 2, 10), doc(3, { tag: 'a' }, 3, 20)]);
        expect((await store.findOne(c, scope, { tag: 'a' }))?._id).toBe(idOf(1));
      });

      test('only within the scope', async () => {
        const c = await collection();
        await putAll(c, otherEnv, [doc(1, { tag: 'a' })]);
        await putAll(c, otherProject, [doc(2, { tag: 'a' })]);
        expect(await store.findOne(c, scope, { tag: 'a' })).toBeUndefined();
      });

      test('follows updates of an indexed key', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1, { tag: 'old' })]);
        await putAll(c, scope, [doc(1, { tag: 'new' }, 1, 2)]);
        expect([(await store.findOne(c, scope, { tag: 'old' }))?._id, (await store.findOne(c, scope, { tag: 'new' }))?._id]).toEqual([undefined, idOf(1)]);
      });

      test('on a field that is not indexed', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1, { colour: 'red' }), doc(2, { colour: 'blue' })]);
        expect((await store.findOne(c, scope, { colour: 'blue' }))?._id).toBe(idOf(2));
      });
    });

    // Lists and box queries answer the same on a collection declared volatile (coarse indexes).
    const variants: Array<[string, Partial<CollectionSpec>]> = [['exact indexes', {}], ['volatile', { volatile: true }]];

    describe.each(variants)('list, %s', (_variant, extra) => {
      // Created 1..5 in order; updated in another order, so the two sorts differ.
      const five = (): Doc[] => [
        doc(1, { tag: 'odd', colour: 'red', size: 1, on: true, metadata: { plan: 'pro', seats: 5, trial: false } }, 1, 50),
        doc(2, { tag: 'even', colour: 'blue', size: 2, on: false, metadata: { plan: 'free', seats: '5', trial: 'false' } }, 2, 40),
        doc(3, { tag: 'odd', colour: 'red', size: 3, on: true, metadata: { plan: 'pro', seats: 5.5, trial: true } }, 3, 10),
        doc(4, { tag: 'even', colour: 'green', size: 4, on: false, metadata: { plan: 'pro', seats: 10 } }, 4, 30),
        doc(5, { tag: 'odd', colour: 'blue', size: 5, on: true }, 5, 20),
      ];
      let c: Collection<Doc>;
      beforeEach(async () => {
        c = await collection({ keys: ['tag'], ...extra });
        await putAll(c, scope, five());
        await putAll(c, otherEnv, [doc(6, { tag: 'odd' }, 6)]);
        await putAll(c, otherProject, [doc(7, { tag: 'odd' }, 7)]);
      });

      const rows: Array<[string, Parameters<Store['list']>[2], number[], boolean]> = [
        ['createdAt, newest first (default)', { limit: 10, sortBy: 'createdAt' }, [5, 4, 3, 2, 1], false],
        ['createdAt, oldest first', { limit: 10, sortBy: 'createdAt', order: 'asc' }, [1, 2, 3, 4, 5], false],
        ['updatedAt, newest first', { limit: 10, sortBy: 'updatedAt' }, [1, 2, 4, 5, 3], false],
        ['updatedAt, oldest first', { limit: 10, sortBy: 'updatedAt', order: 'asc' }, [3, 5, 4, 2, 1], false],
        ['limit 1', { limit: 1, sortBy: 'createdAt' }, [5], true],
        ['limit 4', { limit: 4, sortBy: 'createdAt' }, [5, 4, 3, 2], true],
        ['limit equal to the count', { limit: 5, sortBy: 'createdAt' }, [5, 4, 3, 2, 1], false],
        ['before (exclusive)', { limit: 10, sortBy: 'createdAt', ranges: [{ field: 'createdAt', before: at(3) }] }, [2, 1], false],
        ['after (exclusive)', { limit: 10, sortBy: 'createdAt', ranges: [{ field: 'createdAt', after: at(3) }] }, [5, 4], false],
        ['between', { limit: 10, sortBy: 'createdAt', ranges: [{ field: 'createdAt', after: at(1), before: at(5) }] }, [4, 3, 2], false],
        ['range on updatedAt, sorted by createdAt', { limit: 10, sortBy: 'createdAt', ranges: [{ field: 'updatedAt', after: at(25) }] }, [4, 2, 1], false],
        ['updatedAt range, sorted by updatedAt', { limit: 10, sortBy: 'updatedAt', ranges: [{ field: 'updatedAt', before: at(45), after: at(10) }] }, [2, 4, 5], false],
        ['updatedAt after, oldest first', { limit: 2, sortBy: 'updatedAt', order: 'asc', ranges: [{ field: 'updatedAt', after: at(20) }] }, [4, 2], true],
        ['updatedAt, equals an indexed key', { limit: 10, sortBy: 'updatedAt', equals: { tag: 'odd' } }, [1, 5, 3], false],
        ['two ranges', { limit: 10, sortBy: 'createdAt', ranges: [{ field: 'updatedAt', after: at(25) }, { field: 'createdAt', after: at(1) }] }, [4, 2], false],
        ['range and limit: hasMore counts only matches', { limit: 2, sortBy: 'createdAt', ranges: [{ field: 'createdAt', before: at(4) }] }, [3, 2], true],
        ['equals, indexed key', { limit: 10, sortBy: 'createdAt', equals: { tag: 'odd' } }, [5, 3, 1], false],
        ['equals, any of', { limit: 10, sortBy: 'createdAt', equals: { tag: ['odd', 'even'] } }, [5, 4, 3, 2, 1], false],
        ['equals, any of nothing', { limit: 10, sortBy: 'createdAt', equals: { tag: [] } }, [], false],
        ['equals, field not indexed', { limit: 10, sortBy: 'createdAt', equals: { colour: 'blue' } }, [5, 2], false],
        ['equals, field not indexed, any of', { limit: 10, sortBy: 'createdAt', equals: { colour: ['green', 'red'] } }, [4, 3, 1], false],
        ['equals, number field', { limit: 10, sortBy: 'createdAt', equals: { size: 4 } }, [4], false],
        ['equals, boolean field', { limit: 10, sortBy: 'createdAt', equals: { on: false } }, [4, 2], false],
        ['equals, indexed and not', { limit: 10, sortBy: 'createdAt', equals: { tag: 'odd', colour: 'red' } }, [3, 1], false],
        ['equals and limit', { limit: 1, sortBy: 'createdAt', equals: { tag: 'even' } }, [4], true],
        ['metadata string', { limit: 10, sortBy: 'createdAt', metadata: { plan: 'pro' } }, [4, 3, 1], false],
        ['metadata number 5 is not the text "5"', { limit: 10, sortBy: 'createdAt', metadata: { seats: 5 } }, [1], false],
        ['metadata text "5" is not the number 5', { limit: 10, sortBy: 'createdAt', metadata: { seats: '5' } }, [2], false],
        ['metadata decimal number', { limit: 10, sortBy: 'createdAt', metadata: { seats: 5.5 } }, [3], false],
        ['metadata boolean false is not the text "false"', { limit: 10, sortBy: 'createdAt', metadata: { trial: false } }, [1], false],
        ['metadata boolean true', { limit: 10, sortBy: 'createdAt', metadata: { trial: true } }, [3], false],
        ['metadata text "false"', { limit: 10, sortBy: 'createdAt', metadata: { trial: 'false' } }, [2], false],
        ['metadata key nobody has', { limit: 10, sortBy: 'createdAt', metadata: { region: 'eu' } }, [], false],
        ['two metadata filters', { limit: 10, sortBy: 'createdAt', metadata: { plan: 'pro', seats: 10 } }, [4], false],
        ['except ids', { limit: 10, sortBy: 'createdAt', order: 'asc', exceptIds: [idOf(2), idOf(4)] }, [1, 3, 5], false],
        ['except ids, equals and limit: hasMore counts only the rest', { limit: 1, sortBy: 'createdAt', order: 'asc', equals: { tag: 'odd' }, exceptIds: [idOf(1), idOf(3)] }, [5], false],
        ['except no id', { limit: 10, sortBy: 'createdAt', exceptIds: [] }, [5, 4, 3, 2, 1], false],
        ['ids, updatedAt newest first; an unknown id and another scope\'s are absent', { limit: 10, sortBy: 'updatedAt', ids: [idOf(5), idOf(2), idOf(3), idOf(9), idOf(6)] }, [2, 5, 3], false],
        ['ids, oldest first, limit: hasMore counts only the ids', { limit: 2, sortBy: 'updatedAt', order: 'asc', ids: [idOf(1), idOf(2), idOf(4)] }, [4, 2], true],
        ['ids with a range and equals', { limit: 10, sortBy: 'updatedAt', ids: [idOf(1), idOf(2), idOf(3), idOf(5)], equals: { tag: 'odd' }, ranges: [{ field: 'updatedAt', before: at(50) }] }, [5, 3], false],
        ['ids, none', { limit: 10, sortBy: 'createdAt', ids: [] }, [], false],
        ['metadata, equals and a range', { limit: 10, sortBy: 'createdAt', metadata: { plan: 'pro' }, equals: { tag: 'odd' }, ranges: [{ field: 'createdAt', after: at(1) }] }, [3], false],
      ];
      test.each(rows.map(([label, query, want, hasMore]) => ({ label, query, want, hasMore })))('$label', async ({ query, want, hasMore }) => {
        const got = await store.list(c, scope, query);
        expect({ ids: ids(got.docs), hasMore: got.hasMore }).toEqual({ ids: want.map(idOf), hasMore });
      });

      test('documents come back whole', async () => {
        const got = await store.list(c, scope, { limit: 10, sortBy: 'createdAt', order: 'asc' });
        expect(got.docs).toEqual(five());
      });

      test('ties on the sort field are broken by _id, in the same direction', async () => {
        const t = await collection();
        await putAll(t, scope, [doc(3, {}, 7), doc(1, {}, 7), doc(2, {}, 7), doc(4, {}, 8)]);
        const desc = await store.list(t, scope, { limit: 10, sortBy: 'createdAt' });
        const asc = await store.list(t, scope, { limit: 10, sortBy: 'createdAt', order: 'asc' });
        expect([ids(desc.docs), ids(asc.docs)]).toEqual([[4, 3, 2, 1].map(idOf), [1, 2, 3, 4].map(idOf)]);
      });

      test('ties on updatedAt are broken by _id, in the same direction', async () => {
        const t = await collection({ keys: [], ...extra });
        await putAll(t, scope, [doc(3, {}, 1, 7), doc(1, {}, 2, 7), doc(2, {}, 3, 7), doc(4, {}, 4, 8)]);
        const desc = await store.list(t, scope, { limit: 10, sortBy: 'updatedAt' });
        const asc = await store.list(t, scope, { limit: 10, sortBy: 'updatedAt', order: 'asc' });
        expect([ids(desc.docs), ids(asc.docs)]).toEqual([[4, 3, 2, 1].map(idOf), [1, 2, 3, 4].map(idOf)]);
      });

      test('metadata keys with dots, spaces and quotes are keys, not paths', async () => {
        const t = await collection();
        await putAll(t, scope, [
          doc(1, { metadata: { 'a.b': 'dot', 'two words': 1, 'say "hi"': true, "it's": 'apostrophe', a: { b: 'nested' } } }),
          doc(2, { metadata: { a: 'plain' } }),
        ]);
        const rows2: Array<[string, Record<string, string | number | boolean>, number[]]> = [
          ['dot', { 'a.b': 'dot' }, [1]],
          ['dot is not nesting', { 'a.b': 'nested' }, []],
          ['space', { 'two words': 1 }, [1]],
          ['double quotes', { 'say "hi"': true }, [1]],
          ['double quotes are part of the key', { 'say hi': true }, []],
          ['apostrophe', { "it's": 'apostrophe' }, [1]],
        ];
        const got = [];
        for (const [label, metadata] of rows2) got.push([label, ids((await store.list(t, scope, { limit: 10, sortBy: 'createdAt', metadata })).docs)]);
        expect(got).toEqual(rows2.map(([label, , want]) => [label, want.map(idOf)]));
      });

      test('an empty collection', async () => {
        const e = await collection();
        expect(await store.list(e, scope, { limit: 10, sortBy: 'createdAt' })).toEqual({ docs: [], hasMore: false });
      });
    });

    describe.each(variants)('within, %s', (_variant, extra) => {
      const spec: CollectionSpec = { keys: ['tag'], point: 'geometry', ...extra };
      const pt = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
      const box = { minLng: 10, minLat: 50, maxLng: 11, maxLat: 51 };

      test('points in the box, edges included; others, and documents without a point, not', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [
          doc(1, { geometry: pt(10.5, 50.5) }),
          doc(2, { geometry: pt(10, 50) }),
          doc(3, { geometry: pt(11, 51) }),
          doc(4, { geometry: pt(11.0001, 50.5) }),
          doc(5, { geometry: pt(10.5, 49.9999) }),
          doc(6, { geometry: pt(-10.5, -50.5) }),
          doc(7, { tag: 'no point' }),
        ]);
        expect(ids(await store.within(c, scope, box, 100)).sort()).toEqual([1, 2, 3].map(idOf));
      });

      test('at most limit documents', async () => {
        const c = await collection(spec);
        await putAll(c, scope, Array.from({ length: 20 }, (_, i) => doc(i + 1, { geometry: pt(10.5, 50.5) })));
        expect((await store.within(c, scope, box, 7)).length).toBe(7);
      });

      test('only the scope', async () => {
        const c = await collection(spec);
        await putAll(c, otherEnv, [doc(1, { geometry: pt(10.5, 50.5) })]);
        await putAll(c, otherProject, [doc(2, { geometry: pt(10.5, 50.5) })]);
        expect(await store.within(c, scope, box, 100)).toEqual([]);
      });

      test('with equals and metadata filters', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [
          doc(1, { tag: 'a', geometry: pt(10.5, 50.5), metadata: { vip: true } }),
          doc(2, { tag: 'a', geometry: pt(10.5, 50.5), metadata: { vip: 'true' } }),
          doc(3, { tag: 'b', geometry: pt(10.5, 50.5), metadata: { vip: true } }),
        ]);
        expect(ids(await store.within(c, scope, box, 100, { equals: { tag: 'a' }, metadata: { vip: true } }))).toEqual([idOf(1)]);
      });

      test('a moved point is found at its new place only', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [doc(1, { geometry: pt(10.5, 50.5) })]);
        await putAll(c, scope, [doc(1, { geometry: pt(20.5, 50.5) }, 1, 2)]);
        expect([await store.within(c, scope, box, 10), ids(await store.within(c, scope, { ...box, minLng: 20, maxLng: 21 }, 10))]).toEqual([[], [idOf(1)]]);
      });

      test('a box across the antimeridian: longitudes past ±180 wrap; minLng > maxLng is empty', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [
          doc(1, { geometry: pt(179.9, 0) }),
          doc(2, { geometry: pt(-179.9, 0) }),
          doc(3, { geometry: pt(0, 0) }),
          doc(4, { geometry: pt(170, 0) }),
        ]);
        const rows2: Array<[string, { minLng: number; maxLng: number }, number[]]> = [
          ['minLng > maxLng', { minLng: 179.5, maxLng: -179.5 }, []],
          ['maxLng past 180', { minLng: 179.5, maxLng: 180.5 }, [1, 2]],
          ['minLng past -180', { minLng: -180.5, maxLng: -179.5 }, [1, 2]],
          ['wider than the world', { minLng: -200, maxLng: 200 }, [1, 2, 3, 4]],
        ];
        const got = [];
        for (const [label, lng] of rows2) got.push([label, ids(await store.within(c, scope, { ...lng, minLat: -1, maxLat: 1 }, 10)).sort()]);
        expect(got).toEqual(rows2.map(([label, , want]) => [label, want.map(idOf)]));
      });

      test('countGrid: points per cell of a grid over the box, at their mean, edges in the last cell, only the scope', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [
          doc(1, { geometry: pt(10.1, 50.1) }),
          doc(2, { geometry: pt(10.3, 50.3) }),
          doc(3, { geometry: pt(11, 51) }),
          doc(4, { geometry: pt(10.75, 50.25) }),
          doc(5, { geometry: pt(11.5, 50.5) }),
          doc(6, { tag: 'no point' }),
        ]);
        await putAll(c, otherEnv, [doc(7, { geometry: pt(10.1, 50.1) })]);
        const cells = (await store.countGrid(c, scope, box, 2, 2)).sort((a, b) => a.row - b.row || a.column - b.column);
        expect(cells.map((g) => [g.column, g.row, g.count, Number(g.lng.toFixed(6)), Number(g.lat.toFixed(6))])).toEqual([
          [0, 0, 2, 10.2, 50.2],
          [1, 0, 1, 10.75, 50.25],
          [1, 1, 1, 11, 51],
        ]);
        // A moved point is counted at its new place.
        await putAll(c, scope, [doc(4, { geometry: pt(10.25, 50.75) }, 1, 2)]);
        const moved = await store.countGrid(c, scope, box, 2, 2);
        expect(moved.map((g) => [g.column, g.row, g.count]).sort()).toEqual([[0, 0, 2], [0, 1, 1], [1, 1, 1]]);
      });

      test('countGrid across the antimeridian: laid out from the west edge', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [doc(1, { geometry: pt(179.9, 0) }), doc(2, { geometry: pt(-179.9, 0) }), doc(3, { geometry: pt(0, 0) })]);
        const cells = await store.countGrid(c, scope, { minLng: 179.5, maxLng: 180.5, minLat: -1, maxLat: 1 }, 2, 1);
        expect(cells.map((g) => [g.column, g.row, g.count, Number(g.lng.toFixed(6))]).sort()).toEqual([[0, 0, 1, 179.9], [1, 0, 1, -179.9]]);
        expect(await store.countGrid(c, scope, { minLng: 179.5, maxLng: -179.5, minLat: -1, maxLat: 1 }, 2, 1)).toEqual([]);
      });
    });

    describe('scan', () => {
      test('every document of the scope exactly once, in batches', async () => {
        const c = await collection();
        const n = 10_001;
        await putAll(c, scope, Array.from({ length: n }, (_, i) => doc(i + 1, { i })));
        await putAll(c, otherEnv, [doc(n + 1)]);
        await putAll(c, otherProject, [doc(n + 2)]);
        const seen = new Set<string>();
        let batches = 0;
        let duplicates = 0;
        await store.scan(c, scope, (docs) => {
          batches++;
          expect(docs.length).toBeGreaterThan(0);
          for (const d of docs) {
            if (seen.has(d._id)) duplicates++;
            seen.add(d._id);
          }
        });
        expect({ count: seen.size, duplicates, foreign: seen.has(idOf(n + 1)) || seen.has(idOf(n + 2)) }).toEqual({ count: n, duplicates: 0, foreign: false });
        expect(batches).toBeGreaterThanOrEqual(1);
      });

      test('an empty scope yields no documents', async () => {
        const c = await collection();
        let count = 0;
        await store.scan(c, scope, (docs) => (count += docs.length));
        expect(count).toBe(0);
      });
    });

    describe('due', () => {
      const spec: CollectionSpec = { keys: [], due: 'expiresAt' };

      test('across scopes, at or before the time, oldest first, with their scope', async () => {
        const c = await collection(spec);
        const other = await collection(spec);
        await putAll(c, scope, [doc(1, { expiresAt: at(30) }), doc(2, { expiresAt: at(10) }), doc(3, { expiresAt: at(100) }), doc(4, {})]);
        await putAll(c, otherEnv, [doc(5, { expiresAt: at(20) })]);
        await putAll(c, otherProject, [doc(6, { expiresAt: at(29) })]);
        await putAll(other, scope, [doc(7, { expiresAt: at(1) })]);
        const due = await store.due(c, at(30), 100);
        expect(due.map((d) => [d.doc._id, d.scope])).toEqual([
          [idOf(2), scope], [idOf(5), otherEnv], [idOf(6), otherProject], [idOf(1), scope],
        ]);
        expect(due[0].doc).toEqual(doc(2, { expiresAt: at(10) }));
      });

      test('at most limit, the oldest', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [5, 3, 4, 1, 2].map((n) => doc(n, { expiresAt: at(n) })));
        expect((await store.due(c, at(100), 2)).map((d) => d.doc._id)).toEqual([idOf(1), idOf(2)]);
      });

      test('follows updates and deletes of the due field', async () => {
        const c = await collection(spec);
        await putAll(c, scope, [doc(1, { expiresAt: at(5) }), doc(2, { expiresAt: at(6) }), doc(3, { expiresAt: at(50) })]);
        await store.write([
          put(c, scope, doc(1, { expiresAt: at(500) }, 1, 2)),
          put(c, scope, doc(3, { expiresAt: at(7) }, 3, 4)),
          remove(c, scope, idOf(2)),
        ]);
        expect((await store.due(c, at(100), 10)).map((d) => d.doc._id)).toEqual([idOf(3)]);
      });
    });

    describe('write is atomic', () => {
      test('a failing operation rolls back the puts before it', async () => {
        const c = await collection();
        await expect(store.write([
          put(c, scope, doc(1)),
          put(c, otherEnv, doc(2)),
          { op: 'put', collection: `never_${uid()}`, scope, doc: doc(3) },
        ])).rejects.toBeDefined();
        expect([await store.get(c, scope, idOf(1)), await store.get(c, otherEnv, idOf(2))]).toEqual([undefined, undefined]);
      });

      test('a failing operation rolls back the deletes and replacements before it', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(1, { v: 'original' }), doc(2)]);
        await expect(store.write([
          remove(c, scope, idOf(2)),
          put(c, scope, doc(1, { v: 'changed' }, 1, 9)),
          { op: 'put', collection: `never_${uid()}`, scope, doc: doc(3) },
        ])).rejects.toBeDefined();
        expect([(await store.get(c, scope, idOf(1)))?.v, (await store.get(c, scope, idOf(2)))?._id]).toEqual(['original', idOf(2)]);
      });

      test('operations apply in order', async () => {
        const c = await collection();
        await putAll(c, scope, [doc(2)]);
        await store.write([
          put(c, scope, doc(1)),
          remove(c, scope, idOf(1)),
          remove(c, scope, idOf(2)),
          put(c, scope, doc(2, { back: true })),
        ]);
        expect([await store.get(c, scope, idOf(1)), (await store.get(c, scope, idOf(2)))?.back]).toEqual([undefined, true]);
      });
    });

    describe('withLock', () => {
      // Acquiring a lock may take round trips (PostgreSQL advisory locks), so the tests wait for "entered"
      // signals rather than for ticks, open every gate in `finally` so a failure cannot leave a lock held,
      // and give up on a waiter after a generous bound instead of hanging the suite.
      function gate(): { open: () => void; opened: Promise<void> } {
        let open!: () => void;
        const opened = new Promise<void>((r) => (open = r));
        return { open, opened };
      }
      const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
      function within<T>(p: Promise<T>, ms: number): Promise<T | 'gave up'> {
        let timer: NodeJS.Timeout | undefined;
        return Promise.race([p, new Promise<'gave up'>((r) => (timer = setTimeout(() => r('gave up'), ms)))]).finally(() => clearTimeout(timer));
      }

      test('one key: the second holder starts after the first finished', async () => {
        const key = `k${uid()}`;
        const log: string[] = [];
        const release = gate();
        const entered = gate();
        try {
          const first = store.withLock(key, async () => {
            log.push('first in');
            entered.open();
            await release.opened;
            log.push('first out');
            return 1;
          });
          await entered.opened;
          const second = store.withLock(key, async () => {
            log.push('second in');
            return 2;
          });
          // Room for a broken lock to let the second in early; a correct one never does, however long.
          await settle(100);
          expect(log).toEqual(['first in']);
          release.open();
          expect(await Promise.all([first, second])).toEqual([1, 2]);
          expect(log).toEqual(['first in', 'first out', 'second in']);
        } finally {
          release.open();
        }
      });

      test('waiters run in arrival order', async () => {
        const key = `k${uid()}`;
        const log: number[] = [];
        const release = gate();
        const entered = gate();
        try {
          const held = store.withLock(key, async () => {
            entered.open();
            await release.opened;
          });
          await entered.opened;
          const waiters = [1, 2, 3, 4, 5].map((n) => store.withLock(key, async () => void log.push(n)));
          release.open();
          await Promise.all([held, ...waiters]);
          expect(log).toEqual([1, 2, 3, 4, 5]);
        } finally {
          release.open();
        }
      });

      test('different keys do not wait for each other', async () => {
        const release = gate();
        const entered = gate();
        try {
          const held = store.withLock(`a${uid()}`, async () => {
            entered.open();
            await release.opened;
          });
          await entered.opened;
          const other = await within(store.withLock(`b${uid()}`, async () => 'ran while a was held'), 10_000);
          release.open();
          await held;
          expect(other).toBe('ran while a was held');
        } finally {
          release.open();
        }
      });

      test('a throwing holder releases the lock and its error reaches the caller', async () => {
        const key = `k${uid()}`;
        const failed = store.withLock(key, async () => {
          throw new Error('boom');
        });
        const next = store.withLock(key, async () => 'next ran');
        await expect(failed).rejects.toThrow('boom');
        expect(await within(next, 10_000)).toBe('next ran');
      });

      test('the value of the locked section is returned', async () => {
        expect(await store.withLock(`k${uid()}`, async () => ({ n: 42 }))).toEqual({ n: 42 });
      });
    });

    describe('scopes', () => {
      test('the distinct scopes holding documents of the collection', async () => {
        const c = await collection();
        const other = await collection();
        await putAll(c, scope, [doc(1), doc(2)]);
        await putAll(c, otherEnv, [doc(3)]);
        await putAll(other, otherProject, [doc(4)]);
        const key = (s: Scope) => `${s.projectId}/${s.live}`;
        expect((await store.scopes(c)).map(key).sort()).toEqual([scope, otherEnv].map(key).sort());
      });
    });

    describe('projects', () => {
      function project(name: string, createdAt: string): ProjectRecord {
        return { _id: `p${uid()}`.padEnd(24, '0'), name, createdAt, settings: {} };
      }
      function keys(projectId: string): ApiKeyRecord[] {
        return [false, true].flatMap((live) => (['publishable', 'secret'] as const).map((kind) => ({
          hash: randomBytes(32).toString('hex'), projectId, live, kind, display: `${kind}-${live}`, createdAt: at(0),
        })));
      }
      const sortKeys = (list: ApiKeyRecord[]) => [...list].sort((a, b) => a.hash.localeCompare(b.hash));

      test('create, get, list, keys and keyByHash', async () => {
        const p = project('Acme', at(1));
        const k = keys(p._id);
        await store.projects.create(p, k);
        expect(await store.projects.get(p._id)).toEqual(p);
        expect((await store.projects.list()).find((x) => x._id === p._id)).toEqual(p);
        expect(sortKeys(await store.projects.keys(p._id))).toEqual(sortKeys(k));
        for (const key of k) expect(await store.projects.keyByHash(key.hash)).toEqual(key);
        expect([await store.projects.get('nope'), await store.projects.keyByHash('0'.repeat(64))]).toEqual([undefined, undefined]);
      });

      test('list is oldest first', async () => {
        const older = project('older', at(1));
        const newer = project('newer', at(2));
        await store.projects.create(newer, []);
        await store.projects.create(older, []);
        const order = (await store.projects.list()).map((p) => p._id).filter((id) => id === older._id || id === newer._id);
        expect(order).toEqual([older._id, newer._id]);
      });

      test('replaceKeys: old keys are gone, new ones found', async () => {
        const p = project('Rotating', at(1));
        const old = keys(p._id);
        await store.projects.create(p, old);
        const fresh = keys(p._id);
        await store.projects.replaceKeys(p._id, fresh);
        expect(sortKeys(await store.projects.keys(p._id))).toEqual(sortKeys(fresh));
        for (const key of old) expect(await store.projects.keyByHash(key.hash)).toBeUndefined();
      });

      test('replaceKeys is atomic: a failing replacement keeps the old keys', async () => {
        const p = project('Kept', at(1));
        const old = keys(p._id);
        await store.projects.create(p, old);
        const clash = keys(p._id);
        clash[1] = { ...clash[1], hash: clash[0].hash };
        await expect(store.projects.replaceKeys(p._id, clash)).rejects.toBeDefined();
        expect(sortKeys(await store.projects.keys(p._id))).toEqual(sortKeys(old));
      });

      test('create is atomic: a key that clashes leaves no project behind', async () => {
        const first = project('First', at(1));
        const firstKeys = keys(first._id);
        await store.projects.create(first, firstKeys);
        const second = project('Second', at(2));
        const clashing = [...keys(second._id).slice(1), { ...firstKeys[0], projectId: second._id }];
        await expect(store.projects.create(second, clashing)).rejects.toBeDefined();
        expect(await store.projects.get(second._id)).toBeUndefined();
        expect(await store.projects.keyByHash(firstKeys[0].hash)).toEqual(firstKeys[0]);
      });

      test('updateSettings replaces the settings object', async () => {
        const p = project('Settings', at(1));
        await store.projects.create({ ...p, settings: { a: 1 } }, []);
        await store.projects.updateSettings(p._id, { stopDetection: true, tripExpirationHours: 12 });
        expect((await store.projects.get(p._id))?.settings).toEqual({ stopDetection: true, tripExpirationHours: 12 });
      });
    });

    describe('distinctKeys', () => {
      test('the distinct values of an indexed key among the matching documents, in byte order, at most limit, in the scope only', async () => {
        const c = await collection({ keys: ['place', 'who', 'state'], unindexed: ['state'] });
        const rows: Array<[string, string | undefined, string]> = [
          ['a', 'u3', 'open'], ['b', 'u3', 'open'], ['a', 'u1', 'shut'], ['c', 'U9', 'open'], ['b', 'u2', 'open'], ['a', 'u2', 'open'], ['a', undefined, 'open'],
        ];
        await store.write(rows.map(([place, who, state], i) => put(c, scope, doc(i + 1, { place, ...(who === undefined ? {} : { who }), state }))));
        await store.write([put(c, otherEnv, doc(50, { place: 'a', who: 'u0' })), put(c, otherProject, doc(51, { place: 'a', who: 'u0' }))]);
        expect(await store.distinctKeys(c, scope, 'who', {}, 10)).toEqual(['U9', 'u1', 'u2', 'u3']);
        expect(await store.distinctKeys(c, scope, 'who', {}, 2)).toEqual(['U9', 'u1']);
        expect(await store.distinctKeys(c, scope, 'who', { place: 'a' }, 10)).toEqual(['u1', 'u2', 'u3']);
        expect(await store.distinctKeys(c, scope, 'who', { place: ['a', 'b'], state: 'open' }, 10)).toEqual(['u2', 'u3']);
        expect(await store.distinctKeys(c, scope, 'who', { place: 'z' }, 10)).toEqual([]);
        expect(await store.distinctKeys(c, scope, 'who', { place: [] }, 10)).toEqual([]);
        expect(await store.distinctKeys(c, otherEnv, 'who', {}, 10)).toEqual(['u0']);
        await expect(store.distinctKeys(c, scope, 'state', {}, 10)).rejects.toBeDefined();
        await expect(store.distinctKeys(c, scope, 'colour', {}, 10)).rejects.toBeDefined();
      });
    });

    describe('keyPrefix', () => {
      test('the documents whose indexed key starts with the prefix as stored, in key order, at most limit, in the scope only', async () => {
        const c = await collection({ keys: ['tag', 'externalId'], unindexed: ['externalId'] });
        const tags = ['alpha-3', 'Alpha-1', 'alphabet', 'alp', 'beta', 'alpha-2', 'alpha\u00e9', 'alphA'];
        await store.write(tags.map((tag, i) => put(c, scope, doc(i + 1, { tag, externalId: `e${i}` }))));
        await store.write([put(c, otherEnv, doc(50, { tag: 'alpha-0' })), put(c, otherProject, doc(51, { tag: 'alpha-0' })), put(c, scope, doc(52, { externalId: 'alpha-9' }))]);
        const tagsOf = (docs: Doc[]) => docs.map((d) => d.tag);
        expect(tagsOf(await store.keyPrefix(c, scope, 'tag', 'alpha', 10))).toEqual(['alpha-2', 'alpha-3', 'alphabet', 'alpha\u00e9']);
        expect(tagsOf(await store.keyPrefix(c, scope, 'tag', 'alpha', 2))).toEqual(['alpha-2', 'alpha-3']);
        expect(tagsOf(await store.keyPrefix(c, scope, 'tag', 'alpha\u00e9', 10))).toEqual(['alpha\u00e9']);
        expect(tagsOf(await store.keyPrefix(c, scope, 'tag', 'gamma', 10))).toEqual([]);
        expect(tagsOf(await store.keyPrefix(c, otherEnv, 'tag', 'al', 10))).toEqual(['alpha-0']);
        // LIKE's wildcards are plain characters here.
        expect(await store.keyPrefix(c, scope, 'tag', 'alpha%', 10)).toEqual([]);
        expect(await store.keyPrefix(c, scope, 'tag', 'alph_', 10)).toEqual([]);
        await expect(store.keyPrefix(c, scope, 'externalId', 'e', 10)).rejects.toBeDefined();
        await expect(store.keyPrefix(c, scope, 'description', 'e', 10)).rejects.toBeDefined();
      });
    });
  });
}
