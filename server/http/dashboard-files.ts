// Serves the built dashboard (dist/dashboard, made by `npm install` through dashboard/build.mjs) under
// /dashboard/. Static files only: the dashboard itself talks to the public API with the user's key.
// Files are read once and kept in memory with their gzip form (the bundle and the map outlines gzip to
// a quarter of their size), so a first load costs no disk reads and little bandwidth. The gzip form is
// the build's (`<file>.gz`, dashboard/build.mjs): compressing every file at level 9 on the first request
// cost 360 CPU-ms of the main thread, which the first page load of a fresh gateway waited for (issue 33).
// A file the build did not compress (a source map, an older build) is compressed on the thread pool the
// first time it is asked for gzipped, never on the main thread.
import express, { type Request, type Response } from 'express';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.map': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml',
};

interface CachedFile {
  type: string;
  raw: Buffer;
  /** The build's `<file>.gz`, or the thread pool's compression once asked for. */
  gzip?: Buffer | Promise<Buffer>;
  etag: string;
}

/** The repository root: the nearest folder above this file with a package.json (works from src and dist). */
function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

export function defaultDashboardDir(): string {
  return path.join(repoRoot(), 'dist', 'dashboard');
}

function loadFiles(dir: string): Map<string, CachedFile> {
  const files = new Map<string, CachedFile>();
  if (!fs.existsSync(dir)) return files;
  for (const name of fs.readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const raw = fs.readFileSync(path.join(dir, name));
    const stat = fs.statSync(path.join(dir, name));
    const gzipped = path.join(dir, `${name}.gz`);
    // A .gz older than its file was not made from it (a file replaced by hand after the build).
    const built = fs.existsSync(gzipped) && fs.statSync(gzipped).mtimeMs >= stat.mtimeMs ? fs.readFileSync(gzipped) : undefined;
    files.set(name, { type, raw, gzip: built, etag: `"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"` });
  }
  return files;
}

export function dashboardFiles(dir: string = defaultDashboardDir()): express.Router {
  // Strict: '/dashboard' and '/dashboard/' must differ, or the redirect below would loop.
  const router = express.Router({ strict: true });
  let files: Map<string, CachedFile> | undefined;
  router.get('/dashboard', (_req, res) => res.redirect(301, '/dashboard/'));
  router.get('/dashboard/:file', (req: Request, res: Response) => serve(req, res, req.params.file as string));
  router.get('/dashboard/', (req: Request, res: Response) => serve(req, res, 'index.html'));

  async function serve(req: Request, res: Response, name: string): Promise<void> {
    files ??= loadFiles(dir);
    if (files.size === 0) {
      res.status(503).json({ meta: { code: 503, message: 'the dashboard is not built: run `npm run build:dashboard` (npm install does it)' } });
      return;
    }
    const file = files.get(name);
    if (!file) {
      res.status(404).json({ meta: { code: 404, param: 'path', message: `No dashboard file ${name}` } });
      return;
    }
    res.setHeader('Content-Type', file.type);
    res.setHeader('ETag', file.etag);
    // The page must pick up a new build at once; the rest is named by the page and revalidated by ETag.
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    if (req.headers['if-none-match'] === file.etag) {
      res.status(304).end();
      return;
    }
    if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.end(file.raw);
      return;
    }
    if (!file.gzip) {
      const compressing = gzip(file.raw, { level: 9 });
      file.gzip = compressing;
      compressing.then((done) => { file.gzip = done; }, () => { file.gzip = undefined; });
    }
    let body: Buffer;
    try {
      body = await file.gzip;
    } catch {
      res.end(file.raw);
      return;
    }
    res.setHeader('Content-Encoding', 'gzip');
    res.end(body);
  }
  return router;
}
