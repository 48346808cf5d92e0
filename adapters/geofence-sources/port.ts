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

/**
 * Which hosts and addresses a URL chosen by a project may reach. The gateway builds it from its
 * address policy (loopback, private and metadata addresses are refused unless the operator allows
 * them); the adapter applies it to every address it connects to, redirects included.
 */
export interface AddressGuard {
  /** Why a host name is refused before any DNS lookup (localhost, metadata names), or undefined. */
  refuseHost(host: string): string | undefined;
  /** Why an IP address (literal or resolved) is refused, or undefined when it may be reached. */
  refuseAddress(ip: string): string | undefined;
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
