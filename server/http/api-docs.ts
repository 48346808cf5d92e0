// GET /v1/openapi.json (the document, no key: it holds no data) and GET /docs: a browsable reference
// rendered by Swagger UI from node_modules/swagger-ui-dist, served by the gateway itself so it works
// offline (no CDN). The page and its start script are ours; helmet's CSP allows same-origin scripts only.
import path from 'node:path';
import express, { Router } from 'express';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Waymark API</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath d='M8 1a5 5 0 0 0-5 5c0 4 5 9 5 9s5-5 5-9a5 5 0 0 0-5-5z' fill='%232a6f97'/%3E%3C/svg%3E">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

export function apiDocs(document: () => Record<string, unknown>): Router {
  const router = Router();
  let cached: string | undefined;
  router.get('/v1/openapi.json', (_req, res) => {
    cached ??= JSON.stringify(document());
    res.type('application/json').send(cached);
  });
  router.get('/docs', (_req, res) => {
    res.type('text/html').send(PAGE);
  });
  router.get('/docs/start.js', (_req, res) => {
    res.type('text/javascript').send(START);
  });
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.use('/docs/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return router;
}
