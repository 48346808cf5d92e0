// Reading a webhook's fields from a request body (or CLI flags shaped like one). Shape only: whether
// the URL's host may be delivered to is decided in webhook-service.ts, which resolves it.
import { BadRequest } from '../../http/errors';
import { isAbsent, readBoolean, readEnum, readList, readString } from '../../http/params';
import type { DeliveryMode } from '../../../core/webhooks/delivery-plan';
import { MAX_URL_LENGTH, parseWebhookUrl } from '../../../core/webhooks/webhook-url';

export interface WebhookFields {
  url?: string;
  /** null: all event types. */
  types?: string[] | null;
  mode?: DeliveryMode;
  enabled?: boolean;
  description?: string;
}

const MAX_TYPES = 50;
const TYPE_PATTERN = /^[A-Za-z0-9_.]{1,64}\*?$|^\*$/;
const ALL_TYPES = new Set(['*', 'all']);

function readTypes(raw: unknown): string[] | null | undefined {
  if (raw === null) return null;
  if (isAbsent(raw)) return undefined;
  const list = readList(raw, 'types');
  if (list === undefined) return undefined;
  if (list.some((t) => ALL_TYPES.has(t))) return null;
  if (list.length > MAX_TYPES) throw new BadRequest('types', `types can hold at most ${MAX_TYPES} event types`);
  for (const t of list) {
    if (!TYPE_PATTERN.test(t)) {
      throw new BadRequest('types', `types entry "${t.slice(0, 80)}" is not an event type (letters, digits, "_" and "."; a trailing * matches a prefix)`);
    }
  }
  return [...new Set(list)];
}

/** The fields present in `body`; `creating` makes url required. */
export function readWebhookFields(body: Record<string, unknown>, creating: boolean): WebhookFields {
  const out: WebhookFields = {};
  const url = readString(body.url, 'url', { maxLength: MAX_URL_LENGTH });
  if (url !== undefined) {
    const parsed = parseWebhookUrl(url.trim());
    if (!parsed.ok) throw new BadRequest('url', parsed.message);
    out.url = parsed.target.href;
  } else if (creating) {
    throw new BadRequest('url', 'url is required');
  }
  const types = readTypes(body.types ?? body.eventTypes);
  if (types !== undefined) out.types = types;
  // `batch: true` reads naturally in forms and CLI flags; `mode` is the stored field.
  const batch = readBoolean(body.batch, 'batch');
  const mode = readEnum(body.mode, 'mode', ['single', 'batch'] as const) ?? (batch === undefined ? undefined : batch ? 'batch' : 'single');
  if (mode !== undefined) out.mode = mode;
  const enabled = readBoolean(body.enabled, 'enabled');
  if (enabled !== undefined) out.enabled = enabled;
  const description = readString(body.description, 'description', { maxLength: 256 });
  if (description !== undefined) out.description = description;
  return out;
}
