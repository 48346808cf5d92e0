// Webhook settings for tests: the receiver on 127.0.0.1 allowed, a fast poll, short timeouts and
// backoff, so retries and dead letters happen within a test's time.
import { configFromEnv, type WebhookConfig } from '../../server/config';

export function fastWebhooks(overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  return {
    ...configFromEnv({}).webhooks,
    allowPrivate: true, pollMs: 20, timeoutMs: 400, backoffBaseMs: 30, backoffMaxMs: 120, maxAttempts: 4, ...overrides,
  };
}
