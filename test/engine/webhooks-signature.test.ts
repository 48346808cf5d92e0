// Webhook signatures: the HMACs against published test vectors, the header format, and the
// receiver-side checks (tampered body, wrong token, stale timestamp, several signatures).
import { createHmac } from 'node:crypto';
import {
  radarSignature, verifyRadarSignature, verifyWaymarkSignature, waymarkSignature, waymarkSignatureHeader,
} from '../../core/webhooks/signature';

describe('HMACs', () => {
  // RFC 2202 test case 2 (HMAC-SHA1): key "Jefe", data "what do ya want for nothing?".
  test('X-Radar-Signature is hex HMAC-SHA1 of the signing id keyed with the token', () => {
    expect(radarSignature('Jefe', 'what do ya want for nothing?')).toBe('effcdf6ae5eb2fa2d27416d5f184df9c259a7c79');
  });

  test('X-Waymark-Signature is hex HMAC-SHA256 of "<timestamp>.<body>"', () => {
    // Expected value computed independently: printf '%s' '1700000000.<body>' | openssl dgst -sha256 -hmac Jefe
    expect(waymarkSignature('Jefe', 1700000000, '{"event":{"_id":"e1"},"user":null}')).toBe('9da21aaa9c5ea5db85775c2ad2dfc8b420453740a7e3bebb837fb6a444fe23cc');
    expect(waymarkSignature('Jefe', 1700000001, '{"event":{"_id":"e1"},"user":null}')).not.toBe('9da21aaa9c5ea5db85775c2ad2dfc8b420453740a7e3bebb837fb6a444fe23cc');
  });
});

describe('HMACs from kept pads', () => {
  // The signatures are built from each token's pads (signature.ts, hmacHex): they must equal Node's
  // createHmac for tokens that fit the block, are longer than it (hashed first) or are not ASCII (the
  // inner pad cannot be prefixed as text), and for messages that are not ASCII, repeated with the same
  // token (the pads then come from the cache).
  const tokens = ['Jefe', 'x'.repeat(64), 'y'.repeat(65), 'z'.repeat(200), 'tökén-ÿ', '\u00ff'.repeat(70), ''];
  const messages = ['', 'abc123', '1700000000.{"event":{"name":"Café ☕"},"user":null}', 'é'.repeat(5000)];
  test.each(tokens)('token %j', (token) => {
    for (let round = 0; round < 2; round++) {
      for (const message of messages) {
        expect(radarSignature(token, message)).toBe(createHmac('sha1', token).update(message, 'utf8').digest('hex'));
      }
      expect(waymarkSignature(token, 1700000000, messages[2])).toBe(createHmac('sha256', token).update(`1700000000.${messages[2]}`, 'utf8').digest('hex'));
      expect(waymarkSignature(token, 7, messages[3])).toBe(createHmac('sha256', token).update(`7.${messages[3]}`, 'utf8').digest('hex'));
    }
  });
});

describe('verifyRadarSignature', () => {
  const sig = radarSignature('token-1', 'abc123');
  test.each([
    ['right token and id', 'token-1', 'abc123', sig, true],
    ['upper-case hex', 'token-1', 'abc123', sig.toUpperCase(), true],
    ['wrong token', 'token-2', 'abc123', sig, false],
    ['another signing id', 'token-1', 'abc124', sig, false],
    ['truncated', 'token-1', 'abc123', sig.slice(0, 20), false],
    ['not hex', 'token-1', 'abc123', 'z'.repeat(40), false],
  ])('%s', (_name, token, id, signature, ok) => {
    expect(verifyRadarSignature(token, id, signature)).toBe(ok);
  });
});

describe('verifyWaymarkSignature', () => {
  const body = '{"event":{"_id":"5f0c1a2b3c4d5e6f70819203","type":"user.entered_geofence"},"user":{"_id":"u"}}';
  const ts = 1_767_225_600; // 2026-01-01T00:00:00Z
  const now = new Date(ts * 1000 + 30_000);
  const header = waymarkSignatureHeader(['new-token', 'old-token'], ts, body);

  test('the header carries one v1 signature per token', () => {
    expect(header).toBe(`v1=${waymarkSignature('new-token', ts, body)},v1=${waymarkSignature('old-token', ts, body)}`);
  });

  test.each([
    ['new token', { token: 'new-token' }, true],
    ['old token during the grace period', { token: 'old-token' }, true],
    ['unknown token', { token: 'other' }, false],
    ['body changed by one byte', { token: 'new-token', body: body.replace('entered', 'exited') }, false],
    ['timestamp changed', { token: 'new-token', timestamp: String(ts + 1) }, false],
    ['timestamp not a number', { token: 'new-token', timestamp: '17e8' }, false],
    ['replayed after the tolerance', { token: 'new-token', now: new Date(ts * 1000 + 301_000) }, false],
    ['clock behind, within tolerance', { token: 'new-token', now: new Date(ts * 1000 - 299_000) }, true],
    ['custom tolerance', { token: 'new-token', toleranceSeconds: 10 }, false],
    ['unknown version only', { token: 'new-token', header: header.replace(/v1=/g, 'v2=') }, false],
  ])('%s', (_name, overrides, ok) => {
    expect(verifyWaymarkSignature({ header, timestamp: String(ts), body, now, ...overrides })).toBe(ok);
  });
});
