// Outbound HTTP to addresses chosen by projects (webhook receivers, geofence-sync downloads): the
// gateway usually sits next to databases and cloud metadata services, so every connection is checked
// against an address guard as it is opened, and every request is bounded in time and in what it reads.
// One connector (adapters/outbound-http/checked-http.ts) serves both users; each says how its failures read to its own people.

/**
 * Which hosts and addresses a URL chosen by a project may reach. The gateway builds it from its address
 * policy (loopback, private and metadata addresses are refused unless the operator allows them); the
 * connector applies it to every address it connects to, redirects included.
 */
export interface AddressGuard {
  /** Why a host name is refused before any DNS lookup (localhost, metadata names), or undefined. */
  refuseHost(host: string): string | undefined;
  /** Why an IP address (literal or resolved) is refused, or undefined when it may be reached. */
  refuseAddress(ip: string): string | undefined;
}

export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface SendOptions {
  /** The attempt's deadline, ms. */
  timeoutMs: number;
  /**
   * When the deadline starts. `wire`: once the first request is on a connection, so the time a receiver
   * is given is not eaten by name resolution or the connection (those are bounded by the connector's
   * connect timeout). `start`: at once, covering everything (a download's one deadline).
   */
  deadlineFrom: 'wire' | 'start';
  /** Response bytes read at most. */
  maxResponseBytes: number;
  /** Past maxResponseBytes: `cut` keeps the status and drops the rest; `fail` fails the request. */
  overLimit: 'cut' | 'fail';
  /** Redirect statuses followed (with the same method and body), and how many hops at most. */
  redirects: { follow: ReadonlySet<number>; max: number };
  /** A user name and password in the URL: sent as HTTP Basic authentication, or refused. */
  credentials: 'basic' | 'refuse';
  /** Keep the connection for the next request to the same origin (a stream of deliveries) or close it. */
  keepAlive: boolean;
  /** Ends the attempt early (shutdown); it then fails with kind `aborted`. */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  statusText: string;
  location?: string;
  retryAfter?: string;
  /** What was read of the body (at most maxResponseBytes). */
  body: Buffer;
  /** The body went on past maxResponseBytes and was cut off (`cut`). */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
  /** From the call to the end of the response, ms. */
  latencyMs: number;
}

export type FailureKind =
  | 'refused'
  | 'unresolved'
  | 'connect-timeout'
  | 'timeout'
  | 'too-large'
  | 'too-many-redirects'
  | 'bad-url'
  | 'aborted'
  | 'network';

/** Why an outbound request produced no usable answer; callers phrase it for their readers. */
export class OutboundFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly details: {
      /** The host refused or not resolved. */
      host?: string;
      /** The resolved address that refused a host name (undefined: the host itself was refused). */
      address?: string;
      /** The guard's reason (refused) or the resolver's code (unresolved). */
      reason?: string;
      /** The last redirect's status and target (too-many-redirects), or the declared length (too-large). */
      status?: number;
      location?: string;
      declaredBytes?: number;
      /** The URL the failure concerns (the hop being made). */
      url?: string;
      /** The deadline that passed (timeout, connect-timeout), ms. */
      timeoutMs?: number;
      latencyMs?: number;
    } = {},
  ) {
    super(message);
    this.name = 'OutboundFailure';
  }
}

/** The one connector: a pool of checked connections and the requests made through it. */
export interface OutboundHttp {
  send(request: OutboundRequest, options: SendOptions): Promise<OutboundResponse>;
  /** Closes every connection. */
  close(): Promise<void>;
}
