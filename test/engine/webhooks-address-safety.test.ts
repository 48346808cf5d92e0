// Which addresses webhooks may reach: classification against the special-purpose ranges, the
// operator's switches, and host names that are never left to DNS.
import { addressVerdict, classifyAddress, classifyHostname, hostnameVerdict, isIpLiteral, type AddressPolicy } from '../../core/webhooks/address-safety';

describe('classifyAddress', () => {
  test.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.1', 'public'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['64:ff9b::a9fe:a9fe', 'reserved'],
    ['2002:7f00:1::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  test.each(['example.com', '10.0.0.0/8', '10.0.0.*', '1.2.3', '010.0.0.1', '::g', ''])('%j is not an address', (text) => {
    expect(classifyAddress(text)).toBeUndefined();
    expect(isIpLiteral(text)).toBe(false);
  });
});

describe('addressVerdict', () => {
  const strict: AddressPolicy = { allowPrivate: false, allowedNetworks: [] };
  const privateOk: AddressPolicy = { allowPrivate: true, allowedNetworks: [] };
  const oneNetwork: AddressPolicy = { allowPrivate: false, allowedNetworks: ['10.1.0.0/16', '169.254.169.254'] };
  test.each([
    ['public, strict', '8.8.8.8', strict, true],
    ['loopback, strict', '127.0.0.1', strict, false],
    ['private, strict', '192.168.0.1', strict, false],
    ['loopback, private allowed', '127.0.0.1', privateOk, true],
    ['::1, private allowed', '::1', privateOk, true],
    ['RFC 1918, private allowed', '10.9.9.9', privateOk, true],
    ['CGNAT, private allowed', '100.64.1.1', privateOk, true],
    ['link-local, private allowed', 'fe80::1', privateOk, true],
    ['metadata stays shut with private allowed', '169.254.169.254', privateOk, false],
    ['unspecified stays shut with private allowed', '0.0.0.0', privateOk, false],
    ['multicast stays shut with private allowed', '224.0.0.1', privateOk, false],
    ['inside an allowed network', '10.1.2.3', oneNetwork, true],
    ['outside the allowed network', '10.2.0.1', oneNetwork, false],
    ['metadata only when listed itself', '169.254.169.254', oneNetwork, true],
    ['not an address', 'example.com', privateOk, false],
  ])('%s', (_name, ip, policy, allowed) => {
    const verdict = addressVerdict(ip, policy);
    expect(verdict.allowed).toBe(allowed);
    if (!verdict.allowed) expect(verdict.reason.length).toBeGreaterThan(0);
  });

  test('the reason names the class and, for private classes, the switch', () => {
    expect(addressVerdict('10.0.0.1', strict)).toEqual({
      allowed: false, class: 'private', reason: '10.0.0.1 is a private address (operators may allow it with WAYMARK_WEBHOOK_ALLOW_PRIVATE=true)',
    });
    expect(addressVerdict('169.254.169.254', privateOk)).toEqual({ allowed: false, class: 'metadata', reason: '169.254.169.254 is a cloud metadata address' });
  });
});

describe('host names', () => {
  test.each([
    ['localhost', 'loopback'],
    ['LOCALHOST.', 'loopback'],
    ['api.localhost', 'loopback'],
    ['metadata.google.internal', 'metadata'],
    ['metadata.goog', 'metadata'],
    ['example.com', undefined],
    ['localhost.example.com', undefined],
  ])('%s → %s', (host, cls) => {
    expect(classifyHostname(host)).toBe(cls);
  });

  test.each([
    ['localhost, strict', 'localhost', { allowPrivate: false, allowedNetworks: [] }, false],
    ['localhost, private allowed', 'localhost', { allowPrivate: true, allowedNetworks: [] }, true],
    // With allowed networks DNS decides: the resolved addresses are checked against them.
    ['localhost, networks listed', 'localhost', { allowPrivate: false, allowedNetworks: ['127.0.0.1/32'] }, undefined],
    ['metadata name, private allowed', 'metadata.google.internal', { allowPrivate: true, allowedNetworks: [] }, false],
    ['ordinary name', 'hooks.example.com', { allowPrivate: false, allowedNetworks: [] }, undefined],
  ])('%s', (_name, host, policy, allowed) => {
    expect(hostnameVerdict(host, policy)?.allowed).toBe(allowed);
  });
});
