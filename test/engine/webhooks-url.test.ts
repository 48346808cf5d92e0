// Webhook URL shape: http(s) only, normalised by the WHATWG parser so odd host spellings are seen
// as the addresses they are.
import { parseWebhookUrl } from '../../core/webhooks/webhook-url';

describe('parseWebhookUrl', () => {
  test.each([
    ['plain https', 'https://hooks.example.com/radar', { href: 'https://hooks.example.com/radar', host: 'hooks.example.com', port: 443, literal: false }],
    ['explicit port', 'http://hooks.example.com:8080/x?y=1', { href: 'http://hooks.example.com:8080/x?y=1', port: 8080, literal: false }],
    ['fragment dropped', 'https://h.example/x#part', { href: 'https://h.example/x' }],
    ['decimal IPv4', 'http://2130706433/', { host: '127.0.0.1', literal: true }],
    ['hex IPv4', 'http://0x7f.1/', { host: '127.0.0.1', literal: true }],
    ['IPv6 brackets removed', 'http://[::1]:9000/', { host: '::1', port: 9000, literal: true }],
    ['mapped IPv6 normalised', 'http://[::ffff:127.0.0.1]/', { host: '::ffff:7f00:1', literal: true }],
    ['host lower-cased', 'HTTPS://HOOKS.Example.COM/A', { href: 'https://hooks.example.com/A', host: 'hooks.example.com' }],
  ])('%s', (_name, raw, expected) => {
    const r = parseWebhookUrl(raw);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.target).toMatchObject(expected);
  });

  test.each([
    ['relative', '/hooks', 'url must be an absolute http or https URL'],
    ['ftp', 'ftp://example.com/', 'url must use http or https'],
    ['file', 'file:///etc/passwd', 'url must use http or https'],
    ['javascript', 'javascript:alert(1)', 'url must use http or https'],
    ['too long', `https://example.com/${'a'.repeat(2100)}`, 'url must be at most 2048 characters'],
  ])('%s is refused', (_name, raw, message) => {
    expect(parseWebhookUrl(raw)).toEqual({ ok: false, message });
  });
});
