// Change notification between gateway nodes sharing one PostgreSQL (LISTEN/NOTIFY). Writers add a
// pg_notify to the transaction of the change, so a notification is sent if and only if the change
// committed; every other node listening on the database hears it within milliseconds. One dedicated
// connection listens; when it drops, it reconnects and reports `interrupted` so that listeners throw away
// whatever they cached (notifications sent meanwhile are lost).
import pg from 'pg';
import type { RemoteChange, Scope } from '../../../ports/store';

/** One channel per database; the schema in the payload tells apart the Waymarks sharing a database. */
export const CHANGE_CHANNEL = 'waymark_changes';
/** NOTIFY payloads must stay under 8,000 bytes: more ids than this announce the whole scope instead. */
export const MAX_IDS_PER_NOTICE = 200;
const RECONNECT_MS = [100, 500, 2000, 5000];

interface Notice {
  /** Schema */
  s: string;
  /** Sending node */
  n: string;
  c: string;
  p?: string;
  l?: boolean;
  i?: string[];
}

/** The payload announcing a change; `ids` undefined means "anything in this scope". */
export function noticePayload(schema: string, node: string, collection: string, target: { scope?: Scope; projectId?: string; ids?: string[] }): string {
  const n: Notice = { s: schema, n: node, c: collection };
  if (target.scope) {
    n.p = target.scope.projectId;
    n.l = target.scope.live;
  } else if (target.projectId !== undefined) n.p = target.projectId;
  if (target.ids && target.ids.length <= MAX_IDS_PER_NOTICE) n.i = target.ids;
  return JSON.stringify(n);
}

function changeOf(n: Notice): RemoteChange {
  const change: RemoteChange = { collection: n.c };
  if (n.p !== undefined && n.l !== undefined) change.scope = { projectId: n.p, live: n.l };
  if (n.p !== undefined) change.projectId = n.p;
  if (n.i) change.ids = n.i;
  return change;
}

export class ChangeChannel {
  private client?: pg.Client;
  private closed = false;
  private failures = 0;
  private retry?: NodeJS.Timeout;
  /** Resolves once the first LISTEN is in place (or failed). */
  readonly ready: Promise<void>;

  constructor(
    private readonly connectionString: string,
    private readonly schema: string,
    private readonly node: string,
    private readonly deliver: (change: RemoteChange) => void,
    private readonly onError: (err: Error) => void,
  ) {
    this.ready = this.connect(false);
  }

  private async connect(reconnecting: boolean): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'waymark-changes' });
    client.on('notification', (msg) => {
      if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
      let n: Notice;
      try {
        n = JSON.parse(msg.payload) as Notice;
      } catch {
        return;
      }
      if (n.s !== this.schema || n.n === this.node) return;
      this.deliver(changeOf(n));
    });
    const lost = (err?: Error): void => {
      if (this.client !== client) return;
      this.client = undefined;
      if (err) this.onError(err);
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      this.client = client;
      this.failures = 0;
      if (this.closed) await client.end();
      // Whatever was announced while nobody listened is unknown: every cache starts over.
      else if (reconnecting) this.deliver({ collection: '*' });
    } catch (err) {
      this.onError(err as Error);
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    const delay = RECONNECT_MS[Math.min(this.failures++, RECONNECT_MS.length - 1)];
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect(true);
    }, delay);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
