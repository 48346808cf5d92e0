// What a track body says about the device's trustworthiness. Radar's SDKs send `mocked` (the OS says
// the location comes from a mock provider or simulator), `verified` (the update went through
// trackVerified) and `fraudPayload`. Radar's own payload is sealed for Radar's servers; Waymark reads it
// only when it is a plain JSON object (or JSON text of one) with boolean `mocked`, `compromised`
// (jailbroken / rooted / integrity failed) and `sharing` (screen sharing), which is what an app or a
// proxy in front of Waymark can send. Top-level `compromised` and `sharing` booleans are read too.
import type { FraudHints } from '../../../core/fraud';
import { readBoolean } from '../../../core/input/scalars';

const MAX_PAYLOAD_LENGTH = 16_384;
const PAYLOAD_FLAGS = ['mocked', 'compromised', 'sharing'] as const;

function plainPayload(raw: unknown): Record<string, unknown> | undefined {
  let value = raw;
  if (typeof raw === 'string') {
    // Longer text is not parsed (bounded work per update) and, like a sealed payload, says nothing.
    if (raw.length > MAX_PAYLOAD_LENGTH || !raw.trimStart().startsWith('{')) return undefined;
    try {
      value = JSON.parse(raw);
    } catch {
      // A sealed or garbled payload is not ours to read; the update itself is still good.
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function readFraudHints(body: Record<string, unknown>): FraudHints {
  const hints: FraudHints = {};
  const payload = plainPayload(body.fraudPayload);
  for (const flag of PAYLOAD_FLAGS) {
    if (payload?.[flag] === true) hints[flag] = true;
  }
  for (const flag of PAYLOAD_FLAGS) {
    const said = readBoolean(body[flag], flag);
    if (said !== undefined) hints[flag] = said || hints[flag] === true;
  }
  const verified = readBoolean(body.verified, 'verified');
  if (verified !== undefined) hints.verified = verified;
  return hints;
}
