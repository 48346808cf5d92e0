// The outbox rows a write adds: one per webhook, however many requests it makes.
//
// A first update that enters six geofences makes six requests to a webhook in single mode. As six rows
// (plus a shared user document, shared-user.ts) they cost seven inserts, six deletes as they were
// delivered, each in the table and its index, and six documents parsed when the queue was read; they
// and their indexes were ~26 % of the WAL frames a first track wrote (docs/track-path.md). A write now
// adds one row per webhook: a bundle holding each request's body (`parts`) and their user once
// (`userJson`), which the worker sends one after the other as if each were a row of its own
// (`requestsOf`) and deletes once the last is acknowledged. Until then `sent` counts the parts
// acknowledged, written with the worker's buffered outcomes, so a crash resends from there (at least
// once, as for rows).
//
// A part that fails holds the bundle as a failing row holds its endpoint: the bundle keeps its attempts,
// backoff and last error. A part that dies becomes a dead letter of its own (a single row with its user
// inline, under a new id) and the bundle goes on with the next part.
import { put, type Scope, type WriteOp } from '../../../ports/store';
import { newObjectId } from '../../../core/object-id';
import type { WebhookEvent, WebhookPayload } from '../../../core/webhooks/delivery-plan';
import { SHARED_USERS, type OutboxRow, type SharedUserDoc } from './webhook-docs';
import { OUTBOX } from '../../api/collections';

/**
 * The payload's parts serialised already (the track path makes the user's and each event's JSON once,
 * for its answer and its rows): `user` is JSON.stringify of the payload's user, `event(e)` of an event.
 */
export interface PayloadTexts {
  user: string;
  event(e: WebhookEvent): string;
}

/**
 * What a body whose user is stored apart ends with: `payload.user` is its last key (delivery-plan.ts
 * builds `{event, user}` and `{events, user}`), so the user's JSON goes in place of the null.
 */
const NULL_USER_END = '"user":null}';

/** A body stored without its user, with the user's JSON put in place. */
export function withUser(json: string, userJson: string, rowId: string): string {
  if (!json.endsWith(NULL_USER_END)) throw new Error(`outbox row ${rowId}: a payload stored without its user must end with ${NULL_USER_END}`);
  return `${json.slice(0, -NULL_USER_END.length)}"user":${userJson}}`;
}

/** JSON.stringify(payload), from the texts when the caller has them: `{event, user}` or `{events, user}`, in that order. */
export function serialisePayload(payload: WebhookPayload, texts: PayloadTexts | undefined): string {
  if (texts === undefined) return JSON.stringify(payload);
  const user = payload.user === null ? 'null' : texts.user;
  return 'event' in payload
    ? `{"event":${texts.event(payload.event)},"user":${user}}`
    : `{"events":[${payload.events.map((e) => texts.event(e)).join(',')}],"user":${user}}`;
}

/** A new row as it is stored: its payload as JSON text, the request body. */
function storedRow(row: OutboxRow, texts: PayloadTexts | undefined): OutboxRow {
  const { payload, ...rest } = row;
  if (payload === undefined) return row;
  return { ...rest, payloadJson: serialisePayload(payload, texts) };
}

/**
 * Rows of one write for several webhooks share their user: `keepMs` is how long the shared document is
 * kept at most (the retry policy's maximum age and a day); the sweep removes it as soon as no row points
 * at it any more (delivery-shared-users.ts).
 */
export interface ShareUser {
  keepMs: number;
}

/**
 * The puts for new outbox rows written together (`newOutboxRow`s, in order, all created at the same
 * time), all carrying `user`: per webhook, a row as it is when it is the only one, else one bundle of
 * them. With `share` and rows for two webhooks or more, their user is stored once, in an `outbox_users`
 * document the rows point at (`sharedUser`), instead of once per webhook: six webhooks made a track
 * update write its ~3 KB user six times, and read it back, parse it and delete it six times, which was
 * a quarter of what a delivery cost (issue 31 item 6, bench/webhooks.ts part C).
 */
export function outboxPuts(scope: Scope, rows: OutboxRow[], user: object | null, texts?: PayloadTexts, share?: ShareUser): WriteOp[] {
  const byWebhook = new Map<string, OutboxRow[]>();
  for (const row of rows) {
    const list = byWebhook.get(row.webhookId);
    if (list) list.push(row);
    else byWebhook.set(row.webhookId, [row]);
  }
  const ops: WriteOp[] = [];
  let sharedUser: string | undefined;
  if (share !== undefined && user !== null && byWebhook.size > 1) {
    const first = rows[0];
    const doc: SharedUserDoc = {
      _id: newObjectId(new Date(first.createdAt)), createdAt: first.createdAt, updatedAt: first.createdAt, userJson: texts?.user ?? JSON.stringify(user),
      webhookIds: [...byWebhook.keys()], expiresAt: new Date(Date.parse(first.createdAt) + share.keepMs).toISOString(),
    };
    sharedUser = doc._id;
    ops.push(put(SHARED_USERS, scope, doc));
  }
  for (const group of byWebhook.values()) {
    if (group.length < 2 || user === null) {
      for (const row of group) {
        if (sharedUser === undefined) ops.push(put(OUTBOX, scope, storedRow(row, texts)));
        else ops.push(put(OUTBOX, scope, { ...storedRow({ ...row, payload: { ...row.payload!, user: null } }, texts), sharedUser }));
      }
      continue;
    }
    const { payload: _payload, ...first } = group[0];
    const bundle: OutboxRow = {
      ...first,
      eventIds: group.flatMap((r) => r.eventIds),
      eventTypes: group.flatMap((r) => r.eventTypes),
      parts: group.map((r) => ({ json: serialisePayload({ ...r.payload!, user: null }, texts), eventIds: r.eventIds, eventTypes: r.eventTypes })),
      sent: 0,
    };
    if (sharedUser === undefined) bundle.userJson = texts?.user ?? JSON.stringify(user);
    else bundle.sharedUser = sharedUser;
    ops.push(put(OUTBOX, scope, bundle));
  }
  return ops;
}

/** One request of the queue: a row, or a part of a bundle (`bundle`, and the part's place in it). */
export interface QueuedRequest {
  /** The request as a row of its own: its body in `payloadJson` (or as an older row keeps it). */
  row: OutboxRow;
  bundle?: { row: OutboxRow; index: number };
}

/**
 * The requests of a row still to send, in order. A bundle's first unsent part carries the bundle's
 * attempts and backoff (they are that part's); the later ones start afresh.
 */
export function requestsOf(row: OutboxRow): QueuedRequest[] {
  if (row.parts === undefined) return [{ row }];
  const { parts, userJson, sent = 0, eventIds: _ids, eventTypes: _types, ...base } = row;
  const out: QueuedRequest[] = [];
  for (let index = sent; index < parts.length; index++) {
    const part = parts[index];
    const fresh = index === sent ? {} : { attempts: 0, lastAttemptAt: undefined, lastStatus: undefined, lastError: undefined };
    out.push({
      row: { ...base, ...fresh, eventIds: part.eventIds, eventTypes: part.eventTypes, payloadJson: userJson === undefined ? part.json : withUser(part.json, userJson, row._id) },
      bundle: { row, index },
    });
  }
  return out;
}

/** Whether the request is the last its row holds: a single row's own, or a bundle's last part. */
export function endsRow(request: QueuedRequest): boolean {
  return !request.bundle || request.bundle.index + 1 === request.bundle.row.parts!.length;
}

/** The id a request goes out under (X-Waymark-Delivery-Id): the row's, and for a part its place in the bundle. */
export function deliveryIdOf(request: QueuedRequest): string {
  return request.bundle ? `${request.bundle.row._id}.${request.bundle.index}` : request.row._id;
}
