// The dashboard's first load with 10,000 geofences and 10,000 users in the environment: bundle size,
// bytes on the wire, time until the map has drawn everything, and the longest main-thread task while it
// did (what a person feels as a freeze). The gateway runs in its own process; Chromium is Debian's.
//
//   npm run bench:build && node dist/bench/dashboard.js [geofences] [users]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildDashboard, chromiumMissing, launchChromium } from '../test/dashboard/browser';
import { startGatewayProcess } from './http/gateway-process';
import { randomPoint, prng } from './support/metro';
import { seedGeofences } from './support/seed';

const GEOFENCES = Number(process.argv[2] ?? 10_000);
const USERS = Number(process.argv[3] ?? 10_000);
const RUNS = 3;

async function seedUsers(url: string, key: string, count: number): Promise<void> {
  const rnd = prng(7);
  let next = 0;
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
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function main(): Promise<void> {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  const bundle = fs.readFileSync(path.join(buildDashboard(), 'app.js'));
  console.log(`bundle: app.js ${(bundle.length / 1024).toFixed(0)} KiB, ${(gzipSync(bundle, { level: 9 }).length / 1024).toFixed(0)} KiB gzipped`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-dashboard-'));
  const seeded = await seedGeofences(dataDir, GEOFENCES);
  const gateway = await startGatewayProcess(dataDir);
  const sk = seeded.keys['test secret'];
  const pk = seeded.keys['test publishable'];
  const seedStarted = Date.now();
  await seedUsers(gateway.url, pk, USERS);
  console.log(`seeded ${GEOFENCES} geofences and ${USERS} users (users in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s); load ${os.loadavg()[0].toFixed(1)}`);

  const browser = await launchChromium();
  try {
    for (let run = 1; run <= RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      // Browser-side code as text: this file is compiled for Node, without the DOM's types.
      await page.addInitScript(`
        sessionStorage.setItem('waymark.dashboard.keys', JSON.stringify({ test: ${JSON.stringify(sk)}, current: 'test' }));
        window.__longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
        }).observe({ type: 'longtask', buffered: true });`);
      let bytes = 0;
      page.on('response', (res) => { void res.body().then((b) => { bytes += b.length; }).catch(() => undefined); });
      const started = Date.now();
      await page.goto(`${gateway.url}/dashboard/#/map`);
      await page.locator('#map[data-ready]').waitFor({ timeout: 120_000 });
      const wall = Date.now() - started;
      const ready = Number(await page.locator('#map').getAttribute('data-ready'));
      // Responsiveness once loaded: a zoom out and back, timed to the next painted frame.
      const interaction = Number(await page.evaluate(`(async () => {
        const t0 = performance.now();
        document.querySelector('.leaflet-control-zoom-out').click();
        await new Promise((r) => setTimeout(r, 400));
        document.querySelector('.leaflet-control-zoom-in').click();
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
        return performance.now() - t0 - 400;
      })()`));
      const longest = Number(await page.evaluate('window.__longest'));
      console.log(`run ${run}: page to map ready ${wall} ms (data loaded and drawn ${ready} ms after the view started), ` +
        `${(bytes / 1024).toFixed(0)} KiB transferred (body bytes, after gzip decoding), longest main-thread task ${longest.toFixed(0)} ms, ` +
        `zoom out+in ${interaction.toFixed(0)} ms; load ${os.loadavg()[0].toFixed(1)}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await gateway.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
