// waymark webhooks list|create|update|delete|rotate-token|deliveries|dead-letters|redeliver
// The same operations as /v1/webhooks, straight on the data directory. A running gateway sees CLI
// edits after its webhook cache period (WAYMARK_WEBHOOK_CACHE_MS, 5 s by default).
import type { Scope } from '../../../ports/store';
import type { StoreCommandParts } from '../store-commands';
import { webhooksOf } from '../../features/webhooks/webhooks-feature';
import { publicDeadLetter, publicDelivery, publicWebhook, type WebhookDoc } from '../../features/webhooks/webhook-docs';
import { readWebhookFields } from '../../features/webhooks/webhook-input';
import { MAX_REDELIVER_EVENTS } from '../../features/webhooks/webhook-service';
import { apiErrorOf } from '../../http/errors';
import { readDatetime, readEnum, readList, readNumber } from '../../http/params';
import { cliErrorOf, environmentFlag, flag, hasFlag, unknownSubcommand, UsageError, type ParsedArgs } from '../args';
import type { CliOutput } from '../output';
import { resolveProject } from './project';

const COMMON = '[--project ID|NAME] [--env test|live] [--json]';

export const WEBHOOKS_USAGE = `waymark webhooks list ${COMMON}
waymark webhooks create --url URL [--types TYPE,…|all] [--mode single|batch] [--disabled] [--description TEXT] ${COMMON}
waymark webhooks update ID [--url URL] [--types TYPE,…|all] [--mode single|batch] [--enable|--disable] [--description TEXT] ${COMMON}
waymark webhooks delete ID ${COMMON}
waymark webhooks rotate-token ID ${COMMON}
waymark webhooks deliveries ID [--limit N] [--outcome delivered|retry|dead|expired] ${COMMON}
waymark webhooks dead-letters ID [--limit N] ${COMMON}
waymark webhooks redeliver ID --dead-letters [--ids ROW,…] ${COMMON}
waymark webhooks redeliver ID --events EVENT,… | --since ISO [--until ISO] [--limit N] ${COMMON}
  (--env defaults to test; --live is short for --env live)`;

async function resolveScope(s: StoreCommandParts, args: ParsedArgs): Promise<Scope> {
  const project = await resolveProject(s, args);
  return { projectId: project._id, live: environmentFlag(args) === 'live' };
}

/** Flags shaped as the HTTP body readWebhookFields expects. */
function fieldsFromFlags(args: ParsedArgs): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of ['url', 'types', 'mode', 'description']) {
    const value = flag(args, name);
    if (value !== undefined) body[name] = value;
  }
  if (hasFlag(args, 'disabled') || hasFlag(args, 'disable')) body.enabled = false;
  if (hasFlag(args, 'enable') || hasFlag(args, 'enabled')) body.enabled = true;
  return body;
}

function webhookLine(w: WebhookDoc): string {
  const types = w.types === null ? 'all events' : w.types.join(',');
  return `${w._id}  ${w.enabled ? 'enabled ' : 'disabled'}  ${w.mode.padEnd(6)}  ${w.url}  (${types})`;
}

function requireId(args: ParsedArgs): string {
  const id = args.words[2];
  if (!id) throw new UsageError(`webhooks ${args.words[1]} needs the webhook's _id\n${WEBHOOKS_USAGE}`);
  return id;
}

export async function webhooksCommand(s: StoreCommandParts, args: ParsedArgs, out: CliOutput): Promise<number> {
  const runtime = webhooksOf(s.installed);
  if (!runtime) throw new UsageError('The webhooks feature is not installed in this build');
  const { service } = runtime;
  const sub = args.words[1];
  const now = new Date();
  try {
    switch (sub) {
      case 'list': {
        const scope = await resolveScope(s, args);
        const hooks = await service.list(scope);
        out.data(hooks.map(publicWebhook));
        if (hooks.length === 0) out.print(`No webhooks in the ${scope.live ? 'live' : 'test'} environment.`);
        for (const w of hooks) out.print(webhookLine(w));
        return 0;
      }
      case 'create': {
        const scope = await resolveScope(s, args);
        const created = await service.create(scope, readWebhookFields(fieldsFromFlags(args), true), now);
        out.data(publicWebhook(created));
        out.print(`Created webhook ${created._id} (${scope.live ? 'live' : 'test'}):`);
        out.print(`  ${webhookLine(created)}`);
        out.print(`  security token: ${created.token}`);
        return 0;
      }
      case 'update': {
        const scope = await resolveScope(s, args);
        const updated = await service.update(scope, requireId(args), readWebhookFields(fieldsFromFlags(args), false), now);
        out.data(publicWebhook(updated));
        out.print(webhookLine(updated));
        return 0;
      }
      case 'delete': {
        const scope = await resolveScope(s, args);
        const id = requireId(args);
        await service.remove(scope, id, now);
        out.data({ deleted: id });
        out.print(`Deleted webhook ${id} with its queue and dead letters.`);
        return 0;
      }
      case 'rotate-token': {
        const scope = await resolveScope(s, args);
        const rotated = await service.rotateToken(scope, requireId(args), now);
        out.data(publicWebhook(rotated));
        out.print(`New security token: ${rotated.token}`);
        out.print('The previous token keeps signing X-Waymark-Signature (beside the new one) for the grace period.');
        return 0;
      }
      case 'deliveries': {
        const scope = await resolveScope(s, args);
        const limit = readNumber(flag(args, 'limit'), 'limit', { min: 1, max: 1000, integer: true }) ?? 20;
        const outcome = readEnum(flag(args, 'outcome'), 'outcome', ['delivered', 'retry', 'dead', 'expired'] as const);
        const { entries, hasMore } = await service.deliveries(scope, requireId(args), { limit, outcome });
        out.data({ deliveries: entries.map(publicDelivery), hasMore });
        if (entries.length === 0) out.print('No deliveries logged.');
        for (const e of entries) {
          out.print(`${e.createdAt}  ${e.outcome.padEnd(9)} attempt ${e.attempt}  ${e.status ?? '---'}  ${e.latencyMs} ms  ${e.eventIds.join(',')}${e.error ? `  ${e.error}` : ''}`);
        }
        return 0;
      }
      case 'dead-letters': {
        const scope = await resolveScope(s, args);
        const limit = readNumber(flag(args, 'limit'), 'limit', { min: 1, max: 1000, integer: true }) ?? 100;
        const { rows, hasMore } = await service.deadLetters(scope, requireId(args), limit);
        out.data({ deadLetters: rows.map(publicDeadLetter), hasMore });
        if (rows.length === 0) out.print('No dead letters.');
        for (const r of rows) out.print(`${r._id}  ${r.deadAt}  ${r.deadReason}  ${r.attempts} attempts  ${r.eventIds.join(',')}  ${r.lastError ?? ''}`);
        return 0;
      }
      case 'redeliver': {
        const scope = await resolveScope(s, args);
        const id = requireId(args);
        if (hasFlag(args, 'dead-letters')) {
          const result = await service.redeliverDead(scope, id, readList(flag(args, 'ids'), 'ids'), now);
          out.data(result);
          out.print(`Queued ${result.queued} dead letter(s) again${result.hasMore ? ' (more remain: run again)' : ''}.`);
          for (const m of result.missing) out.print(`  not a dead letter of this webhook: ${m}`);
          return 0;
        }
        const eventIds = readList(flag(args, 'events'), 'events');
        const createdAfter = readDatetime(flag(args, 'since'), 'since');
        const createdBefore = readDatetime(flag(args, 'until'), 'until');
        if (!eventIds && !createdAfter && !createdBefore) throw new UsageError(`redeliver needs --dead-letters, --events or --since/--until\n${WEBHOOKS_USAGE}`);
        const limit = readNumber(flag(args, 'limit'), 'limit', { min: 1, max: MAX_REDELIVER_EVENTS, integer: true }) ?? 100;
        const result = await service.redeliverEvents(scope, id, { eventIds, createdAfter, createdBefore, limit }, now);
        out.data(result);
        out.print(`Queued ${result.queued} request(s) for ${result.eventIds.length} event(s)${result.hasMore ? ' (more in the range: continue with --since the last one)' : ''}.`);
        for (const m of result.missing) out.print(`  no such event: ${m}`);
        return 0;
      }
      default:
        throw unknownSubcommand('webhooks', sub, WEBHOOKS_USAGE);
    }
  } catch (err) {
    // Validation errors read the same as over HTTP, minus the status code.
    const known = apiErrorOf(err);
    if (known) throw cliErrorOf(known);
    throw err;
  }
}
