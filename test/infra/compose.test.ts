// docker-compose.yml and the Dockerfile against the gateway: every variable compose sets on the gateway is
// one the gateway reads (the ENV table of server/config.ts), with a value the gateway accepts; the
// services the gateway's URLs point at exist. `docker-compose config -q` (in .ci/run) checks the syntax.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ENV, configFromEnv } from '../../server/config';

const REPO = path.resolve(__dirname, '../..');
const compose = parse(fs.readFileSync(path.join(REPO, 'docker-compose.yml'), 'utf8'));
const gatewayEnv: Record<string, string> = compose.services.gateway.environment;

// Engine wiring named by the routing and geocoding work landing in parallel. Each is reported (one line)
// while the gateway does not read it yet; once ENV has it, the test below fails until it leaves this list.
/** ${NAME:-default} → default, as compose substitutes it with NAME unset. */
function substituted(value: string): string {
  return String(value).replace(/\$\{\w+:-([^}]*)\}/g, '$1');
}

test('every variable compose sets on the gateway is one the gateway reads', () => {
  const unread = Object.keys(gatewayEnv).filter((name) => !(name in ENV));
  expect(unread).toEqual([]);
});

test('the gateway accepts the values compose gives it', () => {
  const env = Object.fromEntries(Object.entries(gatewayEnv).map(([k, v]) => [k, substituted(v)]));
  const config = configFromEnv(env);
  expect(config).toMatchObject({ store: 'postgres', rateLimiter: 'redis', port: 8080, dataDir: '/data' });
});

test('URLs on the gateway name services of the file', () => {
  const services = Object.keys(compose.services);
  for (const [name, value] of Object.entries(gatewayEnv)) {
    if (!/_URL$/.test(name)) continue;
    const host = new URL(substituted(value)).hostname;
    expect({ name, host, known: services.includes(host) }).toEqual({ name, host, known: true });
  }
});

test('config files the services mount are in the repository', () => {
  for (const service of Object.values<any>(compose.services)) {
    for (const volume of service.volumes ?? []) {
      const source = String(volume).split(':')[0];
      if (source.startsWith('./')) expect({ source, exists: fs.existsSync(path.join(REPO, source)) }).toEqual({ source, exists: true });
    }
  }
});

test('the Dockerfile runs the CLI the package builds and checks /health', () => {
  const dockerfile = fs.readFileSync(path.join(REPO, 'Dockerfile'), 'utf8');
  expect(dockerfile).toMatch(/ENTRYPOINT \["node", "bin\/waymark\.js"\]/);
  expect(dockerfile).toMatch(/\/health/);
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  expect(pkg.bin.waymark).toBe('bin/waymark.js');
  expect(pkg.scripts.prepare).toBe('npm run build');
});

/** The gateway's environment as compose gives it when the operator's shell sets `shell`. */
function composeEnv(shell: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(gatewayEnv).map(([k, v]) => [
    k, String(v).replace(/\$\{(\w+):-([^}]*)\}/g, (_m, name: string, fallback: string) => shell[name] ?? fallback),
  ]));
}

test('the osrm service (car profile) is reachable for car only: other modes are never sent to it', () => {
  // docs/docker.md: WAYMARK_ROUTER_CAR=osrm routes car through OSRM, the rest stays where it was.
  const carOnly = configFromEnv(composeEnv({ WAYMARK_ROUTER_CAR: 'osrm' }));
  expect(carOnly.routing.modes).toEqual({
    car: { engine: 'osrm', url: 'http://osrm:5000' }, truck: { engine: 'embedded' }, bike: { engine: 'embedded' }, foot: { engine: 'embedded' },
  });
  const withValhalla = configFromEnv(composeEnv({ WAYMARK_ROUTER: 'valhalla', WAYMARK_ROUTER_CAR: 'osrm' }));
  expect(withValhalla.routing.modes.car).toEqual({ engine: 'osrm', url: 'http://osrm:5000' });
  expect(withValhalla.routing.modes.foot).toEqual({ engine: 'valhalla', url: 'http://valhalla:8002' });
  // Every mode to OSRM would route pedestrians over car roads: refused, naming a mode without a server.
  expect(() => configFromEnv(composeEnv({ WAYMARK_ROUTER: 'osrm' }))).toThrow(/mode truck is routed by OSRM: set WAYMARK_OSRM_URL_TRUCK/);
});
