// Webhook signatures. Two are sent with every request:
// - Radar's: X-Radar-Signature = hex HMAC-SHA1 of the X-Radar-Signing-Id header's value, keyed with
//   the webhook's security token. Receivers written for Radar verify it unchanged. It signs only a
//   random id, so it proves the sender knows the token but not that the body is the one sent.
// - Ours: X-Waymark-Signature = "v1=" + hex HMAC-SHA256 of "<timestamp>.<raw body>", keyed with the
//   token, with the timestamp (Unix seconds) in X-Waymark-Timestamp. It binds the body and the time,
//   so a captured request can be neither altered nor replayed after the tolerance window.
// HMAC is computation, not I/O: this module stays pure.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_VERSION = 'v1';
/** How far a timestamp may be from the receiver's clock before verification fails. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function radarSignature(token: string, signingId: string): string {
  return createHmac('sha1', token).update(signingId, 'utf8').digest('hex');
}

export function waymarkSignature(token: string, timestampSeconds: number, body: string): string {
  return createHmac('sha256', token).update(`${timestampSeconds}.${body}`, 'utf8').digest('hex');
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
