// Webhook signatures. Two are sent with every request:
// - Radar's: X-Radar-Signature = hex HMAC-SHA1 of the X-Radar-Signing-Id header's value, keyed with
//   the webhook's security token. Receivers written for Radar verify it unchanged. It signs only a
//   random id, so it proves the sender knows the token but not that the body is the one sent.
// - Ours: X-Waymark-Signature = "v1=" + hex HMAC-SHA256 of "<timestamp>.<raw body>", keyed with the
//   token, with the timestamp (Unix seconds) in X-Waymark-Timestamp. It binds the body and the time,
//   so a captured request can be neither altered nor replayed after the tolerance window.
// HMAC is computation, not I/O: this module stays pure.
import { createHash, createHmac, hash, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_VERSION = 'v1';
/** How far a timestamp may be from the receiver's clock before verification fails. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

type HmacAlgorithm = 'sha1' | 'sha256';

/** Both algorithms hash in blocks of 64 bytes: the size of HMAC's padded key (RFC 2104). */
const BLOCK_BYTES = 64;

/**
 * A token's HMAC pads: the key XOR 0x36 (inner), as a string when every byte is ASCII, and XOR 0x5c
 * (outer). Undefined `inner`: the pad is not ASCII, so it cannot travel as a string (see hmacHex).
 */
interface Pads {
  inner: string | undefined;
  outer: Buffer;
}

/** Pads by algorithm and token: a worker signs every request of an endpoint with the same token. */
const knownPads = new Map<string, Pads>();
const MAX_PADS_REMEMBERED = 1024;

function padsOf(algorithm: HmacAlgorithm, token: string): Pads {
  const cacheKey = `${algorithm} ${token}`;
  let pads = knownPads.get(cacheKey);
  if (pads === undefined) {
    let key = Buffer.from(token, 'utf8');
    if (key.length > BLOCK_BYTES) key = createHash(algorithm).update(key).digest();
    const inner = Buffer.alloc(BLOCK_BYTES, 0x36);
    const outer = Buffer.alloc(BLOCK_BYTES, 0x5c);
    for (let i = 0; i < key.length; i++) {
      inner[i] ^= key[i];
      outer[i] ^= key[i];
    }
    pads = { inner: inner.every((b) => b < 0x80) ? inner.toString('latin1') : undefined, outer };
    if (knownPads.size >= MAX_PADS_REMEMBERED) knownPads.clear();
    knownPads.set(cacheKey, pads);
  }
  return pads;
}

/** Node's one-shot digest came with 20.12: older versions sign with createHmac. */
const hasOneShotHash = typeof hash === 'function';

/**
 * Hex HMAC of `message` (as UTF-8), equal to createHmac's. Built from two one-shot digests over the
 * token's kept pads: createHmac looks its digest up and keys it on every call, which under the delivery
 * worker's load cost ~10 µs of its ~170 per request (bench/webhooks, single:1, alternated runs), where a
 * loop of createHmac alone measures 2. An ASCII inner pad is prefixed to the message as text, so the
 * message is encoded once, into the digest's input, rather than copied into a Buffer beside the pad.
 */
function hmacHex(algorithm: HmacAlgorithm, token: string, message: string): string {
  const pads = padsOf(algorithm, token);
  if (!hasOneShotHash || pads.inner === undefined) return createHmac(algorithm, token).update(message, 'utf8').digest('hex');
  const inner = hash(algorithm, pads.inner + message, 'buffer');
  return hash(algorithm, Buffer.concat([pads.outer, inner]), 'hex');
}

export function radarSignature(token: string, signingId: string): string {
  return hmacHex('sha1', token, signingId);
}

export function waymarkSignature(token: string, timestampSeconds: number, body: string): string {
  return hmacHex('sha256', token, `${timestampSeconds}.${body}`);
}

/**
 * The X-Waymark-Signature value: one "v1=<hex>" per token, comma-separated. Right after a token
 * rotation the previous token signs too, so receivers can switch tokens without missing a request.
 */
export function waymarkSignatureHeader(tokens: readonly string[], timestampSeconds: number, body: string): string {
  return tokens.map((t) => `${SIGNATURE_VERSION}=${waymarkSignature(t, timestampSeconds, body)}`).join(',');
}

function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length || !/^[0-9a-f]*$/.test(a)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

export interface VerifyInput {
  /** X-Waymark-Signature as received. */
  header: string;
  /** X-Waymark-Timestamp as received. */
  timestamp: string;
  /** The raw request body, exactly as received (before any JSON parsing). */
  body: string;
  token: string;
  now: Date;
  toleranceSeconds?: number;
}

/** Receiver-side check of X-Waymark-Signature (the docs show the same steps for other languages). */
export function verifyWaymarkSignature(input: VerifyInput): boolean {
  if (!/^\d{1,12}$/.test(input.timestamp)) return false;
  const ts = Number(input.timestamp);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(input.now.getTime() / 1000 - ts) > tolerance) return false;
  const expected = waymarkSignature(input.token, ts, input.body);
  return input.header.split(',').some((part) => {
    const [version, hex] = part.trim().split('=', 2);
    return version === SIGNATURE_VERSION && hex !== undefined && sameHex(hex, expected);
  });
}

/** Receiver-side check of X-Radar-Signature. */
export function verifyRadarSignature(token: string, signingId: string, signature: string): boolean {
  return sameHex(signature.toLowerCase(), radarSignature(token, signingId));
}
