// Where the nightly geofence sync reads its CSV files: public HTTP(S) URLs or an object-storage bucket
// (S3 or S3-compatible). Each source returns the file's bytes, or fails with a SourceError whose
// message is meant for the project's owner (it goes into the run record and the notification mail).

export interface FetchLimits {
  /** Largest file accepted, bytes. */
  maxBytes: number;
  /** Deadline for the whole download (DNS, connect, redirects, body), ms. */
  timeoutMs: number;
  /** Stops the download early (shutdown). */
  signal?: AbortSignal;
}

/** Which hosts and addresses a URL chosen by a project may reach: the outbound connector's guard. */
export type { AddressGuard } from './outbound-http';

/** One CSV object in a bucket, with the credentials that may read it. */
export interface S3ObjectLocation {
  region: string;
  bucket: string;
  key: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** S3's own bucket name rules (3–63 lowercase letters, digits, dots, hyphens; not an IP address). */
export function bucketNameProblem(name: string): string | undefined {
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) return 'must be 3 to 63 lowercase letters, digits, dots or hyphens, starting and ending with a letter or digit';
  if (name.includes('..')) return 'must not contain two dots in a row';
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return 'must not look like an IP address';
  return undefined;
}

/** Region names as AWS and S3-compatible servers spell them (us-east-1, eu-central-2, auto). */
export function regionProblem(region: string): string | undefined {
  return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(region) && region.length <= 32 ? undefined : 'must be a region name such as us-east-1';
}

export function s3Url(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}

/**
 * The downloads the sync may make, with the operator's limits and policies already applied (the
 * gateway wires them: address guard for URLs, endpoint and path style for buckets).
 */
export interface CsvSources {
  http(url: string, limits: FetchLimits): Promise<Buffer>;
  s3(location: S3ObjectLocation, limits: FetchLimits): Promise<Buffer>;
}

/** A download that did not produce a file; the message says why in the owner's terms. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

/** Reads a stream into one buffer, failing once it grows past `maxBytes`. */
export async function readLimited(stream: AsyncIterable<Uint8Array | string>, maxBytes: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += buf.length;
    if (size > maxBytes) throw new SourceError(`${what} is larger than the limit of ${maxBytes} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}
