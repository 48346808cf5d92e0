// The payload's user, stored once per update instead of once per outbox row.
//
// Every request of a webhook carries the user as it was when its events happened (Radar's `{event, user}`).
// A first update that enters ten geofences used to write ten outbox rows each holding the same ~4 KiB
// user, about three quarters of the bytes the update wrote. When several rows of one write carry one
// user, the user goes into one `outbox_users` document and the rows point at it (`sharedUser`), with
// the payload's `user` left null. A single row keeps its user inline: a separate document would cost a row more.
//
// Rows that point at a shared user are pending rows only: a row that becomes a dead letter gets its user
// back inline (dead letters outlive the shared document and are shown by the API). A shared document is
// kept for the retry policy's maximum age plus a day, past which no pending row may still be sent; a row
// of a webhook paused for longer finds it gone and is sent with the user as stored now (as a redelivery is).
import type { Doc, Scope, Store, WriteOp } from '../../../adapters/store/port';
import { newObjectId } from '../../engine/object-id';
import type { WebhookEvent, WebhookPayload } from '../../engine/webhooks/delivery-plan';
import { payloadOf, payloadText, type OutboxRow } from './webhook-docs';
import { publicView } from '../collections';

export const SHARED_USERS = 'outbox_users';

/** Beyond the maximum age of a pending row: a row past it is dead-lettered, not sent. */
const KEEP_BEYOND_MAX_AGE_MS = 24 * 3_600_000;

export interface SharedUserDoc extends Doc {
  /**
   * The user's JSON text, as the request bodies carry it: a stored object would be parsed and serialised
   * again for every update's first delivery, and PostgreSQL's JSONB would reorder its keys.
   */
  userJson?: string;
  /** The user as an object: documents written before `userJson`. */
  user?: Record<string, unknown>;
  expiresAt: string;
}

/**
 * The payload's parts serialised already (the track path makes the user's and each event's JSON once,
 * for its answer and its rows): `user` is JSON.stringify of the payload's user, `event(e)` of an event.
 */
export interface PayloadTexts {
  user: string;
  event(e: WebhookEvent): string;
}

/**
 * The puts for new outbox rows written together, all carrying `user`: the rows as they are when fewer
 * than two, else one shared user document and the rows pointing at it.
 */
export function outboxPuts(scope: Scope, rows: OutboxRow[], user: Record<string, unknown> | null, at: Date, maxAgeMs: number, texts?: PayloadTexts): WriteOp[] {
  if (rows.length < 2 || user === null) return rows.map((row) => ({ op: 'put', collection: 'outbox', scope, doc: storedRow(row, false, texts) }));
  const iso = at.toISOString();
  const shared: SharedUserDoc = {
    _id: newObjectId(at), createdAt: iso, updatedAt: iso, userJson: texts?.user ?? JSON.stringify(user),
    expiresAt: new Date(at.getTime() + maxAgeMs + KEEP_BEYOND_MAX_AGE_MS).toISOString(),
  };
  const ops: WriteOp[] = [{ op: 'put', collection: SHARED_USERS, scope, doc: shared }];
  for (const row of rows) ops.push({ op: 'put', collection: 'outbox', scope, doc: { ...storedRow(row, true, texts), sharedUser: shared._id } });
  return ops;
}

/** A new row as it is stored: its payload as JSON text (the request body), without its user when that is shared. */
function storedRow(row: OutboxRow, userShared: boolean, texts: PayloadTexts | undefined): OutboxRow {
  const { payload, ...rest } = row;
  if (payload === undefined) return row;
  return { ...rest, payloadJson: serialisePayload(userShared ? { ...payload, user: null } : payload, texts) };
}

/** JSON.stringify(payload), from the texts when the caller has them: `{event, user}` or `{events, user}`, in that order. */
export function serialisePayload(payload: WebhookPayload, texts: PayloadTexts | undefined): string {
  if (texts === undefined) return JSON.stringify(payload);
  const user = payload.user === null ? 'null' : texts.user;
  return 'event' in payload
    ? `{"event":${texts.event(payload.event)},"user":${user}}`
    : `{"events":[${payload.events.map((e) => texts.event(e)).join(',')}],"user":${user}}`;
}

/**
 * What a row whose user is shared ends with: `payload.user` is its last key (delivery-plan.ts builds
 * `{event, user}` and `{events, user}`), so the user's JSON goes in place of the null.
 */
const NULL_USER_END = '"user":null}';

/** The `_id` of the user an outbox row's events belong to, from its first event. */
function userIdOf(row: OutboxRow): string | undefined {
  const p = payloadOf(row);
  const first = 'event' in p ? p.event : p.events[0];
  const id = (first?.user as { _id?: unknown } | undefined)?._id;
  return typeof id === 'string' ? id : undefined;
}

/** Shared users recently read, as JSON: the rows of one update are sent one after the other. */
const CACHED = 64;

/**
 * Builds request bodies of outbox rows for the delivery worker, reading each shared user once for the
 * rows that follow it.
 */
export class PayloadBodies {
  private readonly users = new Map<string, string>();

  constructor(private readonly store: Store) {}

  /** The request body of a row: byte for byte `JSON.stringify` of its payload with the user in place. */
  async body(scope: Scope, row: OutboxRow): Promise<string> {
    if (row.sharedUser === undefined) return payloadText(row);
    const user = await this.userJson(scope, row);
    const text = row.payloadJson;
    if (text === undefined) {
      // A row written before payloadJson (a store may have reordered its keys: JSONB does).
      const p = row.payload!;
      return 'event' in p ? `{"event":${JSON.stringify(p.event)},"user":${user}}` : `{"events":${JSON.stringify(p.events)},"user":${user}}`;
    }
    if (!text.endsWith(NULL_USER_END)) throw new Error(`outbox row ${row._id}: a shared user's payload must end with ${NULL_USER_END}`);
    return `${text.slice(0, -NULL_USER_END.length)}"user":${user}}`;
  }

  /** The row with its user inline again (a dead letter keeps no reference). */
  async inline(scope: Scope, row: OutboxRow): Promise<OutboxRow> {
    if (row.sharedUser === undefined) return row;
    const { sharedUser: _shared, payload: _payload, ...rest } = row;
    return { ...rest, payloadJson: await this.body(scope, row) };
  }

  private async userJson(scope: Scope, row: OutboxRow): Promise<string> {
    const id = row.sharedUser!;
    const key = `${scope.projectId}:${scope.live ? 1 : 0}:${id}`;
    let json = this.users.get(key);
    if (json === undefined) {
      const shared = (await this.store.get(SHARED_USERS, scope, id)) as SharedUserDoc | undefined;
      json = shared?.userJson ?? JSON.stringify(shared ? shared.user : await this.storedUser(scope, row));
      this.users.set(key, json);
      if (this.users.size > CACHED) this.users.delete(this.users.keys().next().value as string);
    }
    return json;
  }

  /** The fallback for a shared user gone with its time: the user as stored now, or null when deleted. */
  private async storedUser(scope: Scope, row: OutboxRow): Promise<Record<string, unknown> | null> {
    const id = userIdOf(row);
    const stored = id === undefined ? undefined : await this.store.get('users', scope, id);
    return stored ? publicView(stored) : null;
  }
}
