// WAYMARK_TRUST_PROXY as the docs describe it, turned into the value Express's "trust proxy" expects.
// Express reads a string as addresses only, so "1" would mean the address 1 and "true" fails at start-up;
// hop counts and booleans must be passed as a number and a boolean.

export type TrustProxy = boolean | number | string | string[];

/**
 * Off (unset, "", "false", "0"); "true": every hop (only behind a proxy that overwrites X-Forwarded-For);
 * a hop count ("1", "2"); else addresses, CIDR ranges or Express's names (loopback, linklocal,
 * uniquelocal), comma-separated.
 */
export function trustProxyFrom(raw: string | undefined): TrustProxy {
  const text = raw?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops)) throw new Error(`WAYMARK_TRUST_PROXY: hop count ${text} is too large`);
    return hops;
  }
  const list = text.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (list.length === 0) throw new Error(`WAYMARK_TRUST_PROXY: "${text}" names no proxy`);
  return list;
}
