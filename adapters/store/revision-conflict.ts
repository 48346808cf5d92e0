// A write refused because a put's `expectRev` no longer matched: another write changed (or deleted) the
// document after the writer read it. Every adapter raises this one class, and the whole write applied
// nothing, so the caller can re-read and compute again.
export class RevisionConflict extends Error {
  constructor(
    readonly collection: string,
    detail: string,
  ) {
    super(`revision conflict in ${collection}: ${detail}`);
    this.name = 'RevisionConflict';
  }
}

/** The error code a SQL adapter's write gives a failed revision check before it becomes a RevisionConflict. */
export const REVISION_CONFLICT_CODE = 'WAYMARK_REVISION_CONFLICT';
