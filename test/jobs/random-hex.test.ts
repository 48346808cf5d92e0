// Signing ids come from RandomHex's pooled buffer: each id has the asked length in hex, ids do not
// repeat (bytes are never reused), and crossing the end of the pool refills it.
import { RandomHex } from '../../server/features/webhooks/delivery/random-hex';

test('ids of 12 bytes are 24 lowercase hex digits and all different, across several pool refills', () => {
  const ids = new RandomHex();
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const id = ids.next(12);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    seen.add(id);
  }
  expect(seen.size).toBe(2000);
});

test('an id as large as the pool is served; a larger one is refused', () => {
  const ids = new RandomHex();
  ids.next(10);
  expect(ids.next(4096)).toMatch(/^[0-9a-f]{8192}$/);
  expect(() => ids.next(4097)).toThrow(RangeError);
});
