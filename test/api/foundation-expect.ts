// Expectations shared by the foundation HTTP tests: the envelope rules every response obeys (DESIGN §2)
// and a compact "request → expectation" form for table-driven cases, Tile38 style.
import type { Reply, RequestOptions, TestServer } from '../support/server';

export interface Want {
  status: number;
  /** meta.param; `null` asserts that no param is sent. */
  param?: string | null;
  /** Exact meta.message, or a pattern it must match. */
  message?: string | RegExp;
  /** meta.type. */
  type?: string;
}

/** A row of a request → expectation table. */
export interface Case {
  name: string;
  method: string;
  path: string;
  opts?: RequestOptions;
  want: Want;
}

const STACK_LINE = /\bat .+\.(ts|js):\d+|node_modules|[A-Za-z]+Error: /;

/** What every response must look like, success or failure. */
export function assertEnvelope(reply: Reply): void {
  expect(reply.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(reply.body).toEqual(expect.objectContaining({ meta: expect.objectContaining({ code: reply.status }) }));
  expect(reply.headers.get('x-request-id')).toMatch(/^\S+$/);
  expect(JSON.stringify(reply.body)).not.toMatch(STACK_LINE);
  if (reply.status >= 400) {
    // Errors carry only meta, with a human message.
    expect(Object.keys(reply.body)).toEqual(['meta']);
    expect(typeof reply.body.meta.message).toBe('string');
    expect(reply.body.meta.message.length).toBeGreaterThan(0);
  }
}

export function assertWant(reply: Reply, want: Want): void {
  assertEnvelope(reply);
  const meta = reply.body.meta;
  // Compare status, param, message and type together so a failure shows all of them.
  const got: Record<string, unknown> = { status: reply.status };
  const expected: Record<string, unknown> = { status: want.status };
  if (want.param !== undefined) {
    got.param = meta.param ?? null;
    expected.param = want.param;
  }
  if (typeof want.message === 'string') {
    got.message = meta.message;
    expected.message = want.message;
  }
  if (want.type !== undefined) {
    got.type = meta.type;
    expected.type = want.type;
  }
  expect(got).toEqual(expected);
  if (want.message instanceof RegExp) expect(meta.message).toMatch(want.message);
}

/** Sends the request and checks the envelope rules; returns the reply for further checks. */
export async function call(s: TestServer, method: string, path: string, opts?: RequestOptions): Promise<Reply> {
  const reply = await s.request(method, path, opts);
  assertEnvelope(reply);
  return reply;
}

export async function expectCase(s: TestServer, c: Pick<Case, 'method' | 'path' | 'opts' | 'want'>): Promise<Reply> {
  const reply = await s.request(c.method, c.path, c.opts);
  assertWant(reply, c.want);
  return reply;
}

/** ISO 8601 UTC with milliseconds, as the iOS SDK requires. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const OBJECT_ID = /^[0-9a-f]{24}$/;

/** Waits until the wall clock has moved past `iso`, so the next write gets a later timestamp. */
export async function afterMillisecond(iso: string): Promise<void> {
  const t = Date.parse(iso);
  while (Date.now() <= t) await new Promise((r) => setTimeout(r, 1));
}
