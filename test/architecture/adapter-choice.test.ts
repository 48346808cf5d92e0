// Only the composition root picks adapters (server/app/adapters.ts builds them from the configuration):
// the rest of the server sees ports. This test reads every import of server/ outside server/app/ and
// fails on a value import from adapters/ (a class or factory it could build an adapter with) unless the
// module is one of the few helpers listed below, which build nothing.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sourceFiles } from './source-files';

/** Adapter modules the server may import values from: errors to catch, pure helpers, no adapter. */
const HELPERS = [
  'adapters/data-dir/files-signature', // a data folder's change signature (the regions watcher)
  'adapters/ip-locator/public-address', // whether an address is public: parsing, no lookup
  'adapters/outbound-http/checked-addresses', // a webhook URL's reachability check on create
  // Not a helper: webhook deliveries build their checked connector on the sender's own thread
  // (delivery-sender-thread.ts), where no object of the composition root can be handed over. Listed so
  // that it is the only one; moving it out needs the thread to take a connector factory's name instead.
  'adapters/outbound-http/checked-http',
  'adapters/router/embedded/embedded-router', // NoRouteBetween, the embedded router's error, answered as a 400
  'adapters/router/engine-errors', // RouterRejected, RouterUnavailable: 400 and 503
  'adapters/router/polyline', // the polyline encoding of route shapes
  'adapters/store/revision-conflict', // errors the stores raise
  'adapters/store/unique-violation',
  'adapters/store/store-fault',
  'adapters/store/scope-key', // the key of a project environment, shared with the stores' caches
];

const STATEMENT = /^import\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)';/gms;

/** `file -> module` for every value import of an adapter module by `file`. */
export function adapterValueImports(file: string, source: string): string[] {
  const out: string[] = [];
  for (const [, typeOnly, what, spec] of source.matchAll(STATEMENT)) {
    if (typeOnly || !spec.startsWith('.')) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    if (!target.startsWith('adapters/')) continue;
    const named = /^\{([^}]*)\}$/.exec(what.trim());
    if (named && named[1].split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '))) continue;
    out.push(`${file} -> ${target}`);
  }
  return out;
}

test('outside server/app, the server imports no adapter it could build: only the listed helpers', () => {
  const files = sourceFiles('server').filter((f) => !f.startsWith('server/app/'));
  const found = files.flatMap((f) => adapterValueImports(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
  expect(found.filter((hit) => !HELPERS.includes(hit.split(' -> ')[1]))).toEqual([]);
});

test('the check can fail: a feature importing an adapter class is reported, a type-only import is not', () => {
  const file = 'server/features/geocode/geocode-feature.ts';
  expect(adapterValueImports(file, "import { PeliasGeocoder } from '../../../adapters/geocoder/pelias/pelias-geocoder';\n"))
    .toEqual([`${file} -> adapters/geocoder/pelias/pelias-geocoder`]);
  expect(adapterValueImports(file, "import type { ExtractCatalog } from '../../../adapters/extracts/extract-catalog';\n")).toEqual([]);
  expect(adapterValueImports(file, "import { type ExtractCatalog } from '../../../adapters/extracts/extract-catalog';\n")).toEqual([]);
});
