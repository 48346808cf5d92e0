// The fields every stored document has, whatever its collection. The Store port (ports/store.ts) and the
// typed documents below share this one definition.

/**
 * A type alias, not an interface: a document type built on it (`interface UserDoc extends DocBase`) then
 * still fits `Doc`, which is how adapters and commit listeners see every document.
 */
export type DocBase = {
  _id: string;
  createdAt: string;
  updatedAt: string;
};

/** A document of no declared type: the common fields and anything else. */
export interface Doc extends DocBase {
  [field: string]: unknown;
}
