// Store documents are typed where their collection is declared (`collection<UserDoc>('users', spec)`), and
// nothing else: the Store takes handles only (its types refuse a bare name), reads return the handle's
// type, writes are built with put()/remove() on a handle. These checks keep the ways around that shut:
// a document type open to any field, a write op written by hand with a collection name, a double cast.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sourceFiles } from './source-files';
const LAYERS = ['core', 'ports', 'adapters', 'importers', 'server'];
const files = LAYERS.flatMap((l) => sourceFiles(l));
const text = new Map(files.map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]));

/** `file:line` of every line matching `pattern` in the files `where` admits. */
function linesMatching(pattern: RegExp, where: (file: string) => boolean = () => true): string[] {
  const hits: string[] = [];
  for (const [file, source] of text) {
    if (!where(file)) continue;
    source.split('\n').forEach((line, i) => {
      if (pattern.test(line)) hits.push(`${file}:${i + 1}`);
    });
  }
  return hits;
}

/**
 * Double casts that are not of store documents, each for a reason of its own (a third-party overload set,
 * a generic Express middleware, a stream type Node's typings split in two, a typed record filled by key).
 * A new `as unknown as` anywhere else fails: a store document needs none.
 */
const DOUBLE_CASTS_ALLOWED = [
  'adapters/geocoder/address-format.ts',
  'adapters/outbound-http/checked-http.ts',
  'core/input/geofence-input.ts',
  'core/input/project-settings.ts',
  'importers/osm/osm-input.ts',
  'server/http/fixed-headers.ts',
];

test('no `as unknown as` outside the few listed non-document casts', () => {
  const files = [...new Set(linesMatching(/\bas unknown as\b/).map((hit) => hit.split(':')[0]))].sort();
  expect(files).toEqual(DOUBLE_CASTS_ALLOWED);
});

test('no document type is the open Doc extended: every field of a stored document is declared', () => {
  // `Doc` ([field]: unknown) is what adapters see; a domain document extends DocBase and names its fields.
  expect(linesMatching(/\b(interface|type)\b.*\bextends\s+Doc\b(?!Base)/)).toEqual([]);
});

test('write ops are made with put() and remove() on a typed handle, never by hand with a collection name', () => {
  // The port's own helpers and the adapters (which read ops) are the only places an op literal may appear.
  const mayWriteOps = (f: string) => f === 'ports/store.ts' || f.startsWith('adapters/store/');
  expect(linesMatching(/\bop:\s*'(put|delete)'/, (f) => !mayWriteOps(f))).toEqual([]);
});

test('the checks above can fail: each pattern finds what it forbids', () => {
  expect(/\bas unknown as\b/.test('const u = doc as unknown as UserDoc;')).toBe(true);
  expect(/\b(interface|type)\b.*\bextends\s+Doc\b(?!Base)/.test('export interface UserDoc extends Doc {')).toBe(true);
  expect(/\b(interface|type)\b.*\bextends\s+Doc\b(?!Base)/.test('export interface UserDoc extends DocBase {')).toBe(false);
  expect(/\bop:\s*'(put|delete)'/.test("ops.push({ op: 'put', collection: 'users', scope, doc });")).toBe(true);
});
