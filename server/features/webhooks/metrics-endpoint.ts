// GET /metrics: Prometheus text for operators, outside the /v1 API and its project keys. Guarded by
// WAYMARK_METRICS_TOKEN (sent as "Authorization: Bearer <token>") when set; without a token only
// clients on the loopback interface are answered, judged by the socket's own peer address (never by
// X-Forwarded-For, which a client can write). Refusals are JSON envelopes like every other error.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { GatewayConfig } from '../../config';
import type { StoreFaults } from '../../http/store-faults';
import type { InstalledFeatures } from '../../feature';
import { keyFromHeader } from '../../http/auth';
import { sendEnvelope } from '../../http/envelope';
import { classifyAddress } from '../../../core/webhooks/address-safety';
import { webhooksOf } from './webhooks-feature';

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, which timingSafeEqual needs, without leaking the length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function allowed(req: Request, token: string | undefined): { ok: true } | { ok: false; status: number; message: string } {
  if (token !== undefined) {
    const given = keyFromHeader(req.headers.authorization);
    if (given === undefined) return { ok: false, status: 401, message: 'Unauthorized: /metrics needs the operator token (Authorization: Bearer <WAYMARK_METRICS_TOKEN>)' };
    return sameSecret(given, token) ? { ok: true } : { ok: false, status: 401, message: 'Unauthorized: wrong operator token' };
  }
  const peer = req.socket.remoteAddress ?? '';
  if (classifyAddress(peer) === 'loopback') return { ok: true };
  return { ok: false, status: 403, message: 'Forbidden: /metrics answers loopback clients only unless WAYMARK_METRICS_TOKEN is set' };
}

export function metricsEndpoint(services: InstalledFeatures & { config: Pick<GatewayConfig, 'metricsToken'>; storeFaults: StoreFaults }): RequestHandler {
  return async (req: Request, res: Response) => {
    const verdict = allowed(req, services.config.metricsToken);
    if (!verdict.ok) {
      sendEnvelope(res, verdict.status, { message: verdict.message, type: verdict.status === 401 ? 'ERROR_UNAUTHORIZED' : 'ERROR_FORBIDDEN' });
      return;
    }
    // The webhook gauges read the store: while it is down the scrape still shows the store's faults.
    const webhooks = await Promise.resolve(webhooksOf(services)?.metrics.render(Date.now())).catch((err: unknown) => `# webhook metrics unavailable: ${String(err instanceof Error ? err.message : err).replace(/\n/g, ' ')}\n`);
    const text = `${services.storeFaults.counter.render()}\n${webhooks ?? ''}`;
    res.status(200).type('text/plain; version=0.0.4; charset=utf-8').send(text);
  };
}
