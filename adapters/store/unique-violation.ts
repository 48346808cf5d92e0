// A write refused because it would give two documents the same value of a field the collection declares
// unique. Every adapter raises this one class, so callers can resolve the race (reload and retry) without
// knowing which database said no.
export class UniqueViolation extends Error {
  constructor(
    readonly collection: string,
    detail: string,
  ) {
    super(`unique field of ${collection} already taken: ${detail}`);
    this.name = 'UniqueViolation';
  }
}

