// The dashboard's wording of numbers: thousands grouped as the 'en' locale does, without ICU (words.ts says why).
import { count, thousands } from '../../dashboard/src/words';

test.each([
  [0, '0'], [7, '7'], [999, '999'], [1000, '1,000'], [12345, '12,345'], [1234567, '1,234,567'],
  [-12345, '-12,345'], [12345.5, '12,345.5'], [100000, '100,000'],
])('thousands(%p) is %p, as toLocaleString("en") says', (n, text) => {
  expect(thousands(n)).toBe(text);
  expect(thousands(n)).toBe(n.toLocaleString('en', { maximumFractionDigits: 20 }));
});

test('count: "1 user", "10,000 users", "2 deliveries"', () => {
  expect(count(1, 'user')).toBe('1 user');
  expect(count(10000, 'user')).toBe('10,000 users');
  expect(count(2, 'delivery', 'deliveries')).toBe('2 deliveries');
});
