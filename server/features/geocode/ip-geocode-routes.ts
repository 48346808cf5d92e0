// GET /v1/geocode/ip: where the caller's IP address is (spec "Geocoding"). The address is the
// request's client address (`ctx.ip`: the socket peer, or X-Forwarded-For when WAYMARK_TRUST_PROXY
// trusts the proxy in front), or, with a secret key, the `ip` parameter: server-side callers locate
// their users' addresses, not their own. A publishable key lives on devices; with it `ip` is refused
// rather than silently ignored (the SDKs never send it). Answer: `address`, `proxy` (an anonymous-IP database says it is a VPN,
// proxy or Tor exit; always false without one) and `ip`.
//
// No location is a 404 (ERROR_NOT_FOUND, param "ip") saying why: a private or reserved address (the
// usual cause is a proxy that is not trusted), or an address the database does not cover. The SDKs
// report a 404 as "not found", which is what it is; a 200 without `address` would read as a server
// error to the iOS SDK.
import type { IpLocation, IpLocator } from '../../../ports/ip-locator';
import { isPublicAddress, parseAddress } from '../../../adapters/ip-locator/public-address';
import type { TimeZoneLookup } from '../../../ports/time-zones';
import { BadRequest, EngineUnavailable, NotFound } from '../../http/errors';
import { readString } from '../../http/params';
import type { Route } from '../../http/route';
import { addressTimeZone } from './address-time-zone';
import { ipAddress } from './ip-address';

export function ipGeocodeRoutes(locator: IpLocator, zones: TimeZoneLookup): Route[] {
  return [
    {
      method: 'GET', path: '/v1/geocode/ip', auth: 'publishable', rate: { name: 'geocode-ip', perSecond: 10, per: 'device' },
      handler: async (ctx) => {
        const asked = readString(ctx.query.ip, 'ip', { maxLength: 64 });
        if (asked !== undefined && ctx.auth.kind !== 'secret') {
          throw new BadRequest('ip', 'ip is honoured with a secret key only; a publishable key locates the caller\'s own address');
        }
        const parsed = parseAddress(asked ?? ctx.ip);
        if (parsed === undefined) {
          if (asked !== undefined) throw new BadRequest('ip', `ip must be an IPv4 or IPv6 address, got "${asked}"`);
          throw new NotFound(`The client address "${ctx.ip}" is not an IP address`, 'ip');
        }
        // IPv4 reached over an IPv6 socket arrives as ::ffff:a.b.c.d; clients know it as a.b.c.d.
        const ip = parsed.family === 4 ? parsed.text : (asked ?? ctx.ip).trim();
        if (!isPublicAddress(parsed)) {
          const why = asked !== undefined ? '' : ' (behind a reverse proxy, set WAYMARK_TRUST_PROXY so that the client\'s own address is used)';
          throw new NotFound(`${ip} is a private or reserved address and has no location${why}`, 'ip');
        }
        let found: IpLocation | undefined;
        let proxy: boolean;
        try {
          found = locator.locate(ip);
          proxy = found !== undefined && locator.isProxy !== undefined ? locator.isProxy(ip) : false;
        } catch (err) {
          throw new EngineUnavailable('IP database', err instanceof Error ? err.message : String(err));
        }
        if (found === undefined) throw new NotFound(`No location is known for ${ip}`, 'ip');
        const timeZone = addressTimeZone(zones, [found.longitude, found.latitude], ctx.now, found.timeZone);
        return { body: { address: ipAddress(found, timeZone), proxy, ip } };
      },
    },
  ];
}
