// A collection by name, for tests that put documents of no declared type into the Store (adapter
// conformance, table layouts, crash checks): the Store takes only handles. The spec matters only to
// define(); reads and writes go by the name.
import { collection, type Collection, type CollectionSpec, type Doc } from '../../ports/store';

export function named(name: string, spec: CollectionSpec = { keys: [] }): Collection<Doc> {
  return collection<Doc>(name, spec);
}
