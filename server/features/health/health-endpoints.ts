// Endpoints for load balancers, orchestrators and people, outside /v1 and without keys:
//   GET /        what this server is, its version and where the docs are;
//   GET /health  liveness: the process answers (nothing else is checked);
//   GET /ready   readiness: store reachable and data loaded (503 with the failing check otherwise).
// They reveal no data; /ready's details name only which dependency fails, as operators need.
import { Router } from 'express';
import { sendEnvelope } from '../../http/envelope';
import { packageInfo } from './package-version';
import type { Readiness } from './readiness';

export function healthEndpoints(readiness: Readiness): Router {
  const router = Router();
  const startedAt = Date.now();
  router.get('/', (_req, res) => {
    const { version } = packageInfo();
    sendEnvelope(res, 200, {}, {
      name: 'Waymark',
      description: 'Self-hosted location platform that speaks the Radar v1 API',
      version,
      api: '/v1',
      docs: '/docs',
      openapi: '/v1/openapi.json',
      health: '/health',
      ready: '/ready',
    });
  });
  router.get('/health', (_req, res) => {
    sendEnvelope(res, 200, {}, { status: 'ok', version: packageInfo().version, uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000) });
  });
  router.get('/ready', async (_req, res) => {
    const report = await readiness.report();
    res.setHeader('Cache-Control', 'no-store');
    const failing = Object.entries(report.checks).filter(([, c]) => !c.ok).map(([name]) => name);
    sendEnvelope(
      res,
      report.ready ? 200 : 503,
      report.ready ? {} : { message: `Not ready: ${failing.join(', ')}`, type: 'ERROR_NOT_READY' },
      { status: report.ready ? 'ready' : 'not ready', checks: report.checks },
    );
  });
  return router;
}
