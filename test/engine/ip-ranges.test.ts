import { ipMatchesAny, parseIpRanges } from '../../core/ip-ranges';

describe('parseIpRanges accepts and normalises', () => {
  const cases: Array<{ name: string; input: unknown; expected: string[] }> = [
    { name: 'single IPv4', input: '10.1.2.3', expected: ['10.1.2.3'] },
    { name: 'comma-separated with spaces', input: ' 10.1.2.3 , 192.168.0.1 ', expected: ['10.1.2.3', '192.168.0.1'] },
    { name: 'list', input: ['10.1.2.3', '192.168.0.0/16'], expected: ['10.1.2.3', '192.168.0.0/16'] },
    { name: 'list items holding commas', input: ['10.1.2.3,10.1.2.4', '10.1.2.5'], expected: ['10.1.2.3', '10.1.2.4', '10.1.2.5'] },
    { name: 'IPv4 wildcard', input: '10.1.2.*', expected: ['10.1.2.*'] },
    { name: 'IPv4 CIDR host bits cleared', input: '10.1.2.3/24', expected: ['10.1.2.0/24'] },
    { name: 'IPv4 /0', input: '8.8.8.8/0', expected: ['0.0.0.0/0'] },
    { name: 'IPv4 /32', input: '8.8.8.8/32', expected: ['8.8.8.8/32'] },
    { name: 'IPv4 /31', input: '8.8.8.9/31', expected: ['8.8.8.8/31'] },
    { name: 'IPv4 /1', input: '200.0.0.0/1', expected: ['128.0.0.0/1'] },
    { name: 'IPv6 full form compressed', input: '2001:0DB8:0000:0000:0000:0000:0000:0001', expected: ['2001:db8::1'] },
    { name: 'IPv6 loopback', input: '::1', expected: ['::1'] },
    { name: 'IPv6 unspecified', input: '::', expected: ['::'] },
    { name: 'IPv6 trailing ::', input: 'fe80::', expected: ['fe80::'] },
    { name: 'IPv6 longest zero run compressed', input: '2001:db8:0:0:1:0:0:0', expected: ['2001:db8:0:0:1::'] },
    { name: 'IPv6 first of equal zero runs compressed', input: '2001:0:0:1:0:0:1:1', expected: ['2001::1:0:0:1:1'] },
    { name: 'IPv6 single zero group not compressed', input: '2001:db8:0:1:1:1:1:1', expected: ['2001:db8:0:1:1:1:1:1'] },
    { name: 'IPv6 :: for one group expanded', input: '2001:db8::1:1:1:1:1', expected: ['2001:db8:0:1:1:1:1:1'] },
    { name: 'IPv6 CIDR host bits cleared', input: '2001:db8:abcd:12::1/48', expected: ['2001:db8:abcd::/48'] },
    { name: 'IPv6 /0', input: '2001:db8::/0', expected: ['::/0'] },
    { name: 'IPv6 /128', input: '2001:db8::7/128', expected: ['2001:db8::7/128'] },
    { name: 'IPv6 /127 mid-word', input: '2001:db8::7/127', expected: ['2001:db8::6/127'] },
    { name: 'IPv6 /65 crosses a 32-bit word', input: '2001:db8:1:2:ffff:ffff:ffff:ffff/65', expected: ['2001:db8:1:2:8000::/65'] },
    { name: 'IPv4-mapped IPv6', input: '::FFFF:1.2.3.4', expected: ['::ffff:1.2.3.4'] },
    { name: 'IPv4-mapped written in hex', input: '::ffff:102:304', expected: ['::ffff:1.2.3.4'] },
    { name: 'IPv6 with an embedded IPv4 tail', input: '64:ff9b::192.0.2.33', expected: ['64:ff9b::c000:221'] },
    { name: 'duplicates dropped after normalising', input: '10.0.0.0/8, 10.1.0.0/8, 10.0.0.1', expected: ['10.0.0.0/8', '10.0.0.1'] },
    { name: 'empty entries ignored', input: '10.0.0.1,,10.0.0.2,', expected: ['10.0.0.1', '10.0.0.2'] },
    { name: 'empty string', input: '', expected: [] },
    { name: 'empty list', input: [], expected: [] },
  ];
  it.each(cases)('$name', ({ input, expected }) => {
    expect(parseIpRanges(input)).toEqual({ ok: true, value: expected });
  });
});

describe('parseIpRanges rejects', () => {
  const cases: Array<{ name: string; input: unknown; message: RegExp }> = [
    { name: 'a number', input: 10, message: /^ip must be a comma-separated string or a list of IP ranges; got 10/ },
    { name: 'an object', input: { a: 1 }, message: /^ip must be a comma-separated string/ },
    { name: 'a list with a number', input: ['10.0.0.1', 5], message: /^ip item 2 must be a string; got 5/ },
    { name: 'octet over 255', input: '10.0.0.256', message: /^ip "10\.0\.0\.256" is not valid: not an IPv4 or IPv6 address/ },
    { name: 'three parts', input: '10.0.0', message: /"10\.0\.0" is not valid/ },
    { name: 'leading zeros', input: '10.01.0.1', message: /"10\.01\.0\.1" is not valid: IPv4 parts must not have leading zeros/ },
    { name: 'second entry named', input: '10.0.0.1, 10.0.0.x', message: /^ip entry 2 "10\.0\.0\.x" is not valid/ },
    { name: 'wildcard not last', input: '10.*.0.1', message: /only the last part of an IPv4 address may be \*/ },
    { name: 'two wildcards', input: '10.1.*.*', message: /wildcard range must be three IPv4 parts followed by \*/ },
    { name: 'IPv6 wildcard', input: '2001:db8::*', message: /only the last part of an IPv4 address may be \*/ },
    { name: 'IPv4 prefix 33', input: '10.0.0.0/33', message: /prefix length of an IPv4 CIDR range must be a whole number from 0 to 32/ },
    { name: 'IPv4 prefix negative', input: '10.0.0.0/-1', message: /from 0 to 32/ },
    { name: 'IPv4 prefix empty', input: '10.0.0.0/', message: /from 0 to 32/ },
    { name: 'IPv4 prefix fractional', input: '10.0.0.0/8.5', message: /from 0 to 32/ },
    { name: 'IPv6 prefix 129', input: '2001:db8::/129', message: /IPv6 CIDR range must be a whole number from 0 to 128/ },
    { name: 'CIDR with a bad address', input: '10.0.0.999/8', message: /"10\.0\.0\.999" is not an IPv4 or IPv6 address/ },
    { name: 'two ::', input: '2001::db8::1', message: /"2001::db8::1" is not valid/ },
    { name: 'IPv6 too many groups', input: '1:2:3:4:5:6:7:8:9', message: /is not valid/ },
    { name: 'IPv6 too few groups', input: '1:2:3:4:5:6:7', message: /is not valid/ },
    { name: ':: standing for no group', input: '1:2:3:4::5:6:7:8', message: /is not valid/ },
    { name: 'IPv6 group of five digits', input: '2001:db8::12345', message: /is not valid/ },
    { name: 'IPv6 non-hex', input: '2001:db8::g', message: /is not valid/ },
    { name: 'IPv6 with a zone', input: 'fe80::1%eth0', message: /is not valid/ },
    { name: 'leading single colon', input: ':1::2', message: /is not valid/ },
    { name: 'hostname', input: 'example.com', message: /is not valid/ },
    { name: 'IPv4 range with a dash', input: '10.0.0.1-10.0.0.9', message: /is not valid/ },
  ];
  it.each(cases)('$name', ({ input, message }) => {
    const result = parseIpRanges(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('ipMatchesAny', () => {
  const cases: Array<{ name: string; ip: string; ranges: string[] | string; expected: boolean }> = [
    { name: 'exact IPv4', ip: '10.1.2.3', ranges: ['10.1.2.3'], expected: true },
    { name: 'other IPv4', ip: '10.1.2.4', ranges: ['10.1.2.3'], expected: false },
    { name: 'wildcard low end', ip: '10.1.2.0', ranges: ['10.1.2.*'], expected: true },
    { name: 'wildcard high end', ip: '10.1.2.255', ranges: ['10.1.2.*'], expected: true },
    { name: 'wildcard neighbour', ip: '10.1.3.0', ranges: ['10.1.2.*'], expected: false },
    { name: 'CIDR /24 inside', ip: '192.168.7.200', ranges: ['192.168.7.0/24'], expected: true },
    { name: 'CIDR /24 outside', ip: '192.168.8.1', ranges: ['192.168.7.0/24'], expected: false },
    { name: 'CIDR /0 matches any IPv4', ip: '203.0.113.9', ranges: ['0.0.0.0/0'], expected: true },
    { name: 'IPv4 /0 does not match a plain IPv6 client', ip: '2001:db8::1', ranges: ['0.0.0.0/0'], expected: false },
    { name: 'CIDR /32', ip: '8.8.8.8', ranges: ['8.8.8.8/32'], expected: true },
    { name: 'CIDR /31 pair', ip: '8.8.8.9', ranges: ['8.8.8.8/31'], expected: true },
    { name: 'CIDR /31 outside', ip: '8.8.8.10', ranges: ['8.8.8.8/31'], expected: false },
    { name: 'CIDR /1 high half', ip: '255.255.255.255', ranges: ['128.0.0.0/1'], expected: true },
    { name: 'CIDR /1 low half', ip: '127.255.255.255', ranges: ['128.0.0.0/1'], expected: false },
    { name: 'mapped client against IPv4 range', ip: '::ffff:10.1.2.3', ranges: ['10.1.2.0/24'], expected: true },
    { name: 'mapped client in upper case against wildcard', ip: '::FFFF:10.1.2.3', ranges: ['10.1.2.*'], expected: true },
    { name: 'mapped client outside', ip: '::ffff:10.1.3.3', ranges: ['10.1.2.0/24'], expected: false },
    { name: 'IPv4 client against mapped range', ip: '1.2.3.4', ranges: ['::ffff:1.2.3.4'], expected: true },
    { name: 'IPv6 exact, different spelling', ip: '2001:0db8:0:0:0:0:0:1', ranges: ['2001:db8::1'], expected: true },
    { name: 'IPv6 /48 inside', ip: '2001:db8:abcd:ffff::42', ranges: ['2001:db8:abcd::/48'], expected: true },
    { name: 'IPv6 /48 outside', ip: '2001:db8:abce::1', ranges: ['2001:db8:abcd::/48'], expected: false },
    { name: 'IPv6 /65 inside', ip: '2001:db8:1:2:8000::1', ranges: ['2001:db8:1:2:8000::/65'], expected: true },
    { name: 'IPv6 /65 outside', ip: '2001:db8:1:2:7fff::1', ranges: ['2001:db8:1:2:8000::/65'], expected: false },
    { name: 'IPv6 /128 exact', ip: '::1', ranges: ['::1/128'], expected: true },
    { name: 'IPv6 /127 neighbour', ip: '2001:db8::7', ranges: ['2001:db8::6/127'], expected: true },
    { name: 'IPv6 ::/0 matches IPv4 too', ip: '10.0.0.1', ranges: ['::/0'], expected: true },
    { name: 'IPv6 client against IPv4 ranges', ip: '2001:db8::1', ranges: ['10.0.0.0/8', '10.1.2.*'], expected: false },
    { name: 'link-local with zone', ip: 'fe80::1%eth0', ranges: ['fe80::/10'], expected: true },
    { name: 'bracketed client', ip: '[2001:db8::1]', ranges: ['2001:db8::/32'], expected: true },
    { name: 'second range matches', ip: '172.16.5.4', ranges: ['10.0.0.0/8', '172.16.0.0/12'], expected: true },
    { name: 'comma-separated string of ranges', ip: '172.16.5.4', ranges: '10.0.0.0/8, 172.16.0.0/12', expected: true },
    { name: 'unreadable stored entry skipped', ip: '172.16.5.4', ranges: ['nonsense', '172.16.0.0/12'], expected: true },
    { name: 'empty list matches nothing', ip: '10.0.0.1', ranges: [], expected: false },
    { name: 'unreadable client', ip: 'unknown', ranges: ['0.0.0.0/0', '::/0'], expected: false },
    { name: 'empty client', ip: '', ranges: ['::/0'], expected: false },
  ];
  it.each(cases)('$name', ({ ip, ranges, expected }) => {
    expect(ipMatchesAny(ip, ranges)).toBe(expected);
  });

  it('gives the same answers on repeated calls (cached ranges and client)', () => {
    const ranges = ['10.0.0.0/8', '2001:db8::/32'];
    for (let i = 0; i < 3; i++) {
      expect(ipMatchesAny('10.9.9.9', ranges)).toBe(true);
      expect(ipMatchesAny('11.9.9.9', ranges)).toBe(false);
      expect(ipMatchesAny('2001:db8::5', ranges)).toBe(true);
      expect(ipMatchesAny('2001:db9::5', ranges)).toBe(false);
    }
  });

  it('matches every range that parseIpRanges produced', () => {
    const parsed = parseIpRanges('10.1.2.*, 192.168.0.1/16, 2001:DB8::/32, ::ffff:8.8.8.8');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(['10.1.2.77', '192.168.200.1', '2001:db8:ffff::1', '8.8.8.8'].map((ip) => ipMatchesAny(ip, parsed.value))).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });
});
