// The dashboard's first load and its responsiveness with 100,000 geofences and 10,000 users in the
// environment (issue 33's targets): time until the map is first drawn, bytes over the wire before that
// (Chromium DevTools protocol, Network domain: encoded lengths, i.e. what crossed the socket), the
// longest main-thread task, and the frames while zooming and panning (requestAnimationFrame intervals
// during real mouse input). The gateway runs in its own process, Chromium in its own; beside the page
// figures, GET /v1/data/map and the bare authenticated GET /v1/config are timed from this process.
//
//   npm run bench:build && node dist/bench/dashboard.js [geofences] [users]
//
// BENCH_DATA=/some/dir keeps the seeded data there and reuses it on the next run with the same counts
// (seeding 100,000 geofences and 10,000 users takes minutes on a loaded machine); without it a
// temporary folder is seeded and removed.
//
// TRACE=/some/dir: a Chromium performance trace of each run's first load and of its zoom and pan (the
// categories of DevTools' Performance panel), written there and summed up: the renderer's CPU per thread,
// its main thread by kind (script, style, layout, paint, GC), the long tasks and what they hold, and the
// JavaScript functions with the most self time. DASHBOARD_MINIFY=0 keeps the bundle's function names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildDashboard, chromiumMissing, launchChromium } from '../test/support/chromium';
import { startGatewayProcess } from './http/gateway-process';
import { METRO_CENTER, randomPoint, prng } from './support/metro';
import { seedGeofences } from './support/seed';
import { topSelfTime, type CpuProfile } from './support/cpu-profile';
import { summarizeTrace, TRACE_CATEGORIES } from './support/trace-summary';

const GEOFENCES = Number(process.argv[2] ?? 100_000);
const USERS = Number(process.argv[3] ?? 10_000);
const RUNS = 3;
/** PROFILE=1: a V8 CPU profile of the page's main thread until the first draw and during zoom/pan (slows it). */
const PROFILE = process.env.PROFILE === '1';
const TRACE = process.env.TRACE;
const MiB = 1024 * 1024;

async function seedUsers(url: string, key: string, count: number): Promise<void> {
  const rnd = prng(7);
  let next = 0;
  let done = 0;
  const started = Date.now();
  const progress = setInterval(() => {
    const s = (Date.now() - started) / 1000;
    console.log(`  users: ${done}/${count} tracked, ${(done / s).toFixed(0)}/s`);
  }, 5000);
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const [longitude, latitude] = randomPoint(rnd);
      const res = await fetch(`${url}/v1/track`, {
        method: 'POST', headers: { authorization: key, 'content-type': 'application/json' },
        body: JSON.stringify({ deviceId: `bench-device-${i}`, userId: `bench-user-${i}`, latitude, longitude, accuracy: 20 }),
      });
      if (!res.ok) throw new Error(`track ${i} answered ${res.status}`);
      await res.arrayBuffer();
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: 16 }, worker));
  } finally {
    clearInterval(progress);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;
}

/** Median and p99 of sequential GETs from this process: the route under test beside the bare one. */
async function timeRoute(url: string, key: string, n: number, cpuMs: () => number): Promise<{ p50: number; p99: number; bytes: number; cpu: number }> {
  const times: number[] = [];
  let bytes = 0;
  const cpu0 = cpuMs();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: key } });
    bytes = (await res.arrayBuffer()).byteLength;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  // The gateway's CPU per request (its process, all threads): what the load does not change.
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), bytes, cpu: (cpuMs() - cpu0) / n };
}

// Browser-side code as text: this file is compiled for Node, without the DOM's types.
const FRAME_RECORDER = `(() => {
  window.__frames = [];
  let last = performance.now();
  const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__recording) requestAnimationFrame(tick); };
  window.__recording = true;
  requestAnimationFrame(tick);
})()`;

async function main(): Promise<void> {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  // The scripts: app.js (the shell) and the chunks it loads; the map's are those the page preloads.
  const built = buildDashboard();
  const page = fs.readFileSync(path.join(built, 'index.html'), 'utf8');
  const mapScripts = ['app.js', ...[...page.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1])];
  const scripts = fs.readdirSync(built).filter((f) => f.endsWith('.js'));
  const size = (files: string[]) => {
    const raw = files.map((f) => fs.readFileSync(path.join(built, f)));
    const kib = (n: number) => (n / 1024).toFixed(0);
    return `${kib(raw.reduce((s, b) => s + b.length, 0))} KiB, ${kib(raw.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0))} KiB gzipped`;
  };
  console.log(`scripts: ${scripts.length} files, ${size(scripts)}; the map's (app.js and its preloaded chunks, ${mapScripts.length} files): ${size(mapScripts)}`);

  const kept = process.env.BENCH_DATA;
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-dashboard-'));
  const seedFile = path.join(dataDir, 'bench-dashboard-seed.json');
  const reused = kept && fs.existsSync(seedFile) ? JSON.parse(fs.readFileSync(seedFile, 'utf8')) as { geofences: number; users: number; keys: Record<string, string> } : undefined;
  if (reused && (reused.geofences !== GEOFENCES || reused.users !== USERS)) throw new Error(`${dataDir} holds ${reused.geofences} geofences and ${reused.users} users; remove it or ask for those`);
  let keys: Record<string, string>;
  if (reused) {
    keys = reused.keys;
    console.log(`reusing ${dataDir}: ${GEOFENCES} geofences and ${USERS} users seeded before`);
  } else {
    if (kept) fs.mkdirSync(dataDir, { recursive: true });
    console.log(`seeding ${GEOFENCES} geofences (metro set: 70 % circles, 30 % polygons)…`);
    const seeded = await seedGeofences(dataDir, GEOFENCES);
    console.log(`  ${GEOFENCES} geofences in ${seeded.seedSeconds.toFixed(1)} s`);
    keys = seeded.keys;
  }
  const gateway = await startGatewayProcess(dataDir);
  const sk = keys['test secret'];
  const pk = keys['test publishable'];
  if (!reused) {
    const seedStarted = Date.now();
    await seedUsers(gateway.url, pk, USERS);
    console.log(`seeded ${GEOFENCES} geofences and ${USERS} users (users in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s); load ${os.loadavg()[0].toFixed(1)}`);
    if (kept) fs.writeFileSync(seedFile, JSON.stringify({ geofences: GEOFENCES, users: USERS, keys }));
  }
  // The gateway loads an environment's geofence index on its first request that needs it (seeding users
  // does): that start-up cost is paid here, not by the first page. Printed: what a first page after a
  // restart would wait for (issue 33's "every load"; not built at start yet, docs/dashboard.md).
  {
    const cpu0 = gateway.cpuMs(), main0 = gateway.mainCpuMs(), t0 = performance.now();
    await (await fetch(`${gateway.url}/v1/data/overview`, { headers: { authorization: sk } })).arrayBuffer();
    console.log(`the fresh gateway's first GET /v1/data/overview${reused ? ' (its geofence index built)' : ''}: ${(performance.now() - t0).toFixed(0)} ms, ` +
      `${(gateway.cpuMs() - cpu0).toFixed(0)} CPU-ms (main thread ${(gateway.mainCpuMs() - main0).toFixed(0)}); load ${os.loadavg()[0].toFixed(1)}`);
  }

  const browser = await launchChromium();
  // CPU time of Chromium's renderer processes (SystemInfo.getProcessInfo, seconds): unlike the times
  // above, it hardly grows with the machine's load, so before/after can be compared across sessions.
  const browserCdp = await browser.newBrowserCDPSession();
  const rendererCpuMs = async (): Promise<number> => {
    const { processInfo } = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; cpuTime: number }> };
    return 1000 * processInfo.filter((p) => p.type === 'renderer').reduce((sum, p) => sum + p.cpuTime, 0);
  };
  try {
    for (let run = 1; run <= RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.addInitScript(`
        sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(sk)}, current: 'test' }));
        window.__longest = 0;
        window.__longestBeforeDraw = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            window.__longest = Math.max(window.__longest, e.duration);
            if (!document.querySelector('#map[data-ready]')) window.__longestBeforeDraw = Math.max(window.__longestBeforeDraw, e.duration);
          }
        }).observe({ type: 'longtask', buffered: true });`);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      let wire = 0;
      let drawn = false;
      let wireBeforeDraw = 0;
      const byKind = new Map<string, number>();
      const urls = new Map<string, string>();
      cdp.on('Network.requestWillBeSent', (e: any) => urls.set(e.requestId, e.request.url));
      cdp.on('Network.loadingFinished', (e: any) => {
        wire += e.encodedDataLength;
        if (drawn) return;
        wireBeforeDraw += e.encodedDataLength;
        const u = new URL(urls.get(e.requestId) ?? 'http://x/other');
        const kind = u.pathname.startsWith('/v1/') ? u.pathname : path.basename(u.pathname) || 'page';
        byKind.set(kind, (byKind.get(kind) ?? 0) + e.encodedDataLength);
      });
      const profiled = async <T>(phase: string, fn: () => Promise<T>): Promise<T> => {
        if (TRACE) {
          fs.mkdirSync(TRACE, { recursive: true });
          await browser.startTracing(page, { categories: TRACE_CATEGORIES });
          const result = await fn();
          const file = path.join(TRACE, `run${run}-${phase.replace(/\W+/g, '-')}.json`);
          const buffer = await browser.stopTracing();
          fs.writeFileSync(file, buffer);
          const summary = summarizeTrace(JSON.parse(buffer.toString('utf8')), phase === 'until the first draw' ? 'waymark:map-drawn' : undefined);
          console.log(`  run ${run} ${phase}, trace ${file}:\n    ${summary.join('\n    ')}`);
          return result;
        }
        if (!PROFILE) return fn();
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        const result = await fn();
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
        console.log(`  run ${run} ${phase}, main thread's self time:\n    ${topSelfTime(profile, 12).join('\n    ')}`);
        return result;
      };
      const cpuAtStart = { page: await rendererCpuMs(), gateway: gateway.cpuMs() };
      await profiled('until the first draw', async () => {
        await page.goto(`${gateway.url}/dashboard/#/map`);
        await page.locator('#map[data-ready]').waitFor({ timeout: 120_000 });
      });
      drawn = true;
      const cpuAtDraw = { page: await rendererCpuMs(), gateway: gateway.cpuMs() };
      const drawnAt = Number(await page.locator('#map').getAttribute('data-drawn-at'));
      const status = await page.locator('#map-status').textContent();
      const longestBeforeDraw = Number(await page.evaluate('window.__longestBeforeDraw'));
      // Zoom and pan with real input while recording every frame: wheel in twice, drag, wheel out, drag.
      await page.waitForTimeout(1500);
      const cpuAtZoom = { page: await rendererCpuMs(), gateway: gateway.cpuMs() };
      await profiled('zoom and pan', async () => {
        await page.evaluate(FRAME_RECORDER);
        const box = (await page.locator('#map').boundingBox())!;
        const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
        await page.mouse.move(cx, cy);
        for (const dy of [-300, -300]) { await page.mouse.wheel(0, dy); await page.waitForTimeout(700); }
        await page.mouse.down(); await page.mouse.move(cx - 250, cy - 120, { steps: 20 }); await page.mouse.up();
        await page.waitForTimeout(700);
        await page.mouse.wheel(0, 300); await page.waitForTimeout(700);
        await page.mouse.move(cx, cy); await page.mouse.down(); await page.mouse.move(cx + 300, cy + 100, { steps: 20 }); await page.mouse.up();
        await page.waitForTimeout(1000);
      });
      const frames = (await page.evaluate('(window.__recording = false, window.__frames)')) as number[];
      const cpuAtEnd = { page: await rendererCpuMs(), gateway: gateway.cpuMs() };
      const cpu = (a: { page: number; gateway: number }, b: { page: number; gateway: number }) => `page ${(b.page - a.page).toFixed(0)}, gateway ${(b.gateway - a.gateway).toFixed(0)}`;
      const sorted = [...frames].sort((a, b) => a - b);
      const longest = Number(await page.evaluate('window.__longest'));
      const parts = [...byKind.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KiB`).join(', ');
      console.log(`run ${run}: first map drawn ${drawnAt} ms after navigation (${status}); ` +
        `${(wireBeforeDraw / MiB).toFixed(2)} MiB over the wire before it [${parts}], ${(wire / MiB).toFixed(2)} MiB by the end; ` +
        `longest main-thread task ${longestBeforeDraw.toFixed(0)} ms before the draw, ${longest.toFixed(0)} ms over the whole run; ` +
        `zoom/pan: ${frames.length} frames, p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p95 ${percentile(sorted, 0.95).toFixed(0)} ms, ` +
        `longest ${sorted[sorted.length - 1]?.toFixed(0)} ms, ${frames.filter((f) => f > 50).length} over 50 ms; ` +
        `CPU-ms until the draw: ${cpu(cpuAtStart, cpuAtDraw)}; during zoom/pan: ${cpu(cpuAtZoom, cpuAtEnd)}; load ${os.loadavg()[0].toFixed(1)}`);
      await cdp.detach();
      await page.close();
    }
  } finally {
    await browser.close();
  }
  try {
    const [lng, lat] = METRO_CENTER;
    const wide = `${(lng - 0.3).toFixed(3)},${(lat - 0.2).toFixed(3)},${(lng + 0.3).toFixed(3)},${(lat + 0.2).toFixed(3)}`;
    const street = `${(lng - 0.006).toFixed(4)},${(lat - 0.004).toFixed(4)},${(lng + 0.006).toFixed(4)},${(lat + 0.004).toFixed(4)}`;
    const bare = await timeRoute(`${gateway.url}/v1/config`, pk, 50, gateway.cpuMs);
    const cityView = await timeRoute(`${gateway.url}/v1/data/map?bbox=${wide}&zoom=11`, sk, 50, gateway.cpuMs);
    const streetView = await timeRoute(`${gateway.url}/v1/data/map?bbox=${street}&zoom=16`, sk, 50, gateway.cpuMs);
    const fmt = (r: { p50: number; p99: number; bytes: number; cpu: number }) => `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.cpu.toFixed(1)} CPU-ms each, ${(r.bytes / 1024).toFixed(0)} KiB`;
    console.log(`HTTP, sequential from this process: GET /v1/config ${fmt(bare)}; GET /v1/data/map city view (zoom 11) ${fmt(cityView)}; street view (zoom 16) ${fmt(streetView)}; load ${os.loadavg()[0].toFixed(1)}`);
  } finally {
    await gateway.stop();
    if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
