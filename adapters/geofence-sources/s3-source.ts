// Downloads a CSV object from S3 or an S3-compatible server (MinIO, s3rver, …) for the geofence sync,
// with the read-only credentials a project stored. The endpoint is the operator's choice (AWS by
// default, or WAYMARK_SYNC_S3_ENDPOINT), never the project's: bucket and region are checked to be
// plain names, so a project cannot point the client at another host.
import type * as S3Sdk from '@aws-sdk/client-s3';
import { bucketNameProblem, readLimited, regionProblem, s3Url, SourceError, type FetchLimits, type S3ObjectLocation } from '../../ports/geofence-sources';
import { downloadDeadline } from './deadline';

export interface S3SourceOptions extends FetchLimits {
  /** An S3-compatible server's base URL; undefined for AWS. */
  endpoint?: string;
  /** Bucket in the path (`host/bucket/key`) rather than in the host name; most S3-compatible servers need it. */
  forcePathStyle: boolean;
}

/**
 * The SDK, required on first use: loading it costs ~8 MiB of memory, and most gateways never read
 * from S3.
 */
function sdk(): typeof S3Sdk {
  return require('@aws-sdk/client-s3') as typeof S3Sdk;
}

function describe(err: unknown, loc: S3ObjectLocation): string {
  const where = s3Url(loc.bucket, loc.key);
  if (err instanceof sdk().S3ServiceException) {
    switch (err.name) {
      case 'NoSuchKey':
      case 'NotFound':
        return `${where} does not exist`;
      case 'NoSuchBucket':
        return `bucket ${loc.bucket} does not exist`;
      case 'AccessDenied':
      case 'Forbidden':
        return `access to ${where} was denied: the access key needs read permission (s3:GetObject) on it`;
      case 'InvalidAccessKeyId':
        return 'the access key id is not known to the storage service';
      case 'SignatureDoesNotMatch':
        return 'the secret access key does not match the access key id';
      case 'PermanentRedirect':
      case 'AuthorizationHeaderMalformed':
        return `bucket ${loc.bucket} is not in region ${loc.region}`;
      default:
        return `${where}: ${err.name}${err.message && err.message !== err.name ? `: ${err.message}` : ''} (HTTP ${err.$metadata.httpStatusCode ?? '?'})`;
    }
  }
  // Duck-typed rather than instanceof: errors may come from another realm (a vm context, a test runner).
  const e = (typeof err === 'object' && err !== null ? err : {}) as Partial<NodeJS.ErrnoException>;
  if (typeof e.message === 'string') return `${where}: ${e.code && !e.message.includes(e.code) ? `${e.code}: ` : ''}${e.message}`;
  return `${where}: ${String(err)}`;
}

/** Reads one object within the limits; rejects with a SourceError saying why not. */
export async function fetchS3Csv(loc: S3ObjectLocation, opts: S3SourceOptions): Promise<Buffer> {
  const regionIssue = regionProblem(loc.region);
  if (regionIssue) throw new SourceError(`bucket region "${loc.region}" ${regionIssue}`);
  const bucketIssue = bucketNameProblem(loc.bucket);
  if (bucketIssue) throw new SourceError(`bucket name "${loc.bucket}" ${bucketIssue}`);
  const { GetObjectCommand, S3Client } = sdk();
  const client = new S3Client({
    region: loc.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    credentials: { accessKeyId: loc.accessKeyId, secretAccessKey: loc.secretAccessKey },
    // A nightly job: one retry for a passing fault, then the run reports the failure.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: Math.min(opts.timeoutMs, 10_000), requestTimeout: opts.timeoutMs },
  });
  const deadline = downloadDeadline(opts.timeoutMs, opts.signal);
  const { signal, aborted } = deadline;
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: loc.bucket, Key: loc.key }), { abortSignal: signal });
    if (out.ContentLength !== undefined && out.ContentLength > opts.maxBytes) {
      throw new SourceError(`${s3Url(loc.bucket, loc.key)} is ${out.ContentLength} bytes, larger than the limit of ${opts.maxBytes} bytes`);
    }
    const body = out.Body as unknown;
    if (body === undefined || body === null || typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] !== 'function') {
      throw new SourceError(`${s3Url(loc.bucket, loc.key)}: the storage service sent no body`);
    }
    const stream = body as AsyncIterable<Uint8Array> & { destroy?: () => void };
    try {
      return await Promise.race([readLimited(stream, opts.maxBytes, s3Url(loc.bucket, loc.key)), aborted]);
    } finally {
      stream.destroy?.();
    }
  } catch (err) {
    const cause = signal.aborted ? signal.reason : err;
    if (cause instanceof SourceError) throw cause;
    throw new SourceError(describe(cause, loc));
  } finally {
    deadline.dispose();
    client.destroy();
  }
}
