// Start-up with external adapters misconfigured or unreachable must stop with a message that names the
// variable or the server, not with a stack trace from deep inside a driver. No database is needed here.
import { configFromEnv } from '../../server/config';
import { startTestServer } from '../support/server';

test.each([
  ['postgres without DATABASE_URL', { store: 'postgres' as const, databaseUrl: undefined }, /^WAYMARK_STORE=postgres needs DATABASE_URL/],
  ['postgres unreachable', { store: 'postgres' as const, databaseUrl: 'postgres://waymark:pw@127.0.0.1:1/waymark' }, /^PostgreSQL at waymark@127\.0\.0\.1:1\/waymark is unreachable/],
  ['postgres with a bad schema name', { store: 'postgres' as const, databaseUrl: 'postgres://127.0.0.1:1/x', databaseSchema: 'Bad-Name' }, /schema name "Bad-Name" is not allowed/],
  ['redis without REDIS_URL', { rateLimiter: 'redis' as const, redisUrl: undefined }, /^WAYMARK_RATE_LIMITER=redis needs REDIS_URL/],
  ['redis unreachable', { rateLimiter: 'redis' as const, redisUrl: 'redis://127.0.0.1:1' }, /^Redis at 127\.0\.0\.1:1 is unreachable/],
])('start-up fails clearly: %s', async (_name, overrides, message) => {
  await expect(startTestServer(overrides)).rejects.toThrow(message);
});

test.each([
  ['set', { WAYMARK_DATABASE_SCHEMA: 'tenant_a' }, 'tenant_a'],
  ['empty means unset', { WAYMARK_DATABASE_SCHEMA: '' }, undefined],
  ['absent', {}, undefined],
])('WAYMARK_DATABASE_SCHEMA %s', (_name, env, expected) => {
  expect(configFromEnv(env).databaseSchema).toBe(expected);
});
