// Every answer the test client (server.ts `request`) receives from a /v1 endpoint is validated against the
// OpenAPI document the same server serves at /v1/openapi.json: its status must be one the operation
// documents and its body must match that status's schema (objects are closed, so an undocumented field
// fails too). A test that calls an endpoint therefore fails when the document and the server disagree.
//
// Cheap by design: one Ajv per worker, each operation's schema compiled the first time it is hit and kept
// for every later server serving the same document text. Counts go to the run's log (WAYMARK_TEST_OPENAPI_LOG,
// opened by probe-services.ts) and summary-line-reporter.js prints how many answers and operations it saw.
import fs from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

interface Operation {
  key: string;
  method: string;
  pattern: RegExp;
  /** Literal segments: the most specific template wins, as the route table lists literal paths first. */
  literals: number;
  statuses: Set<string>;
  pointer: string;
}

export interface OpenApiChecker {
  check(method: string, urlPath: string, status: number, body: unknown): void;
  /** Writes this server's counts to the run log. */
  flush(): void;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
// Formats the document uses; the response schemas add a stricter pattern of their own where it matters.
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/);
ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:/i);
const compiled = new Map<string, ValidateFunction>();
const documents = new Map<string, { id: string; operations: Operation[] }>();

function escapePointer(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}

function load(text: string): { id: string; operations: Operation[] } {
  const known = documents.get(text);
  if (known) return known;
  const doc = JSON.parse(text) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const id = `openapi-${documents.size}.json`;
  ajv.addSchema(doc, id);
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const parts = template.split('/');
    const pattern = new RegExp(`^${parts.map((p) => (p.startsWith('{') ? '[^/]+' : p.replace(/[.\\^$|[\]]/g, '\\$&'))).join('/')}/?$`, 'i');
    for (const [method, op] of Object.entries(item)) {
      operations.push({
        key: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        pattern,
        literals: parts.filter((p) => !p.startsWith('{')).length,
        statuses: new Set(Object.keys(op.responses)),
        pointer: `${id}#/paths/${escapePointer(template)}/${method}/responses`,
      });
    }
  }
  operations.sort((a, b) => b.literals - a.literals);
  const entry = { id, operations };
  documents.set(text, entry);
  return entry;
}

function validator(ref: string): ValidateFunction {
  let fn = compiled.get(ref);
  if (!fn) {
    fn = ajv.compile({ $ref: ref });
    compiled.set(ref, fn);
  }
  return fn;
}

const ERROR_REF = '#/components/schemas/Error';

/** Ajv's errors with the property each one is about ("must NOT have additional properties" alone names none). */
function explain(errors: ValidateFunction['errors']): string {
  return (errors ?? []).slice(0, 8).map((e) => {
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    return `${e.instancePath || '(body)'} ${e.message}${extra ? ` "${extra}"` : ''}`;
  }).join('; ');
}

function fail(what: string, detail: string, body: unknown): never {
  throw new Error(`OpenAPI check: ${what}: ${detail}\nbody: ${JSON.stringify(body).slice(0, 600)}`);
}

export function openApiChecker(documentText: string): OpenApiChecker {
  const { id, operations } = load(documentText);
  const seen = new Map<string, number>();
  return {
    check(method, urlPath, status, body) {
      const path = urlPath.split('?')[0];
      if (!path.startsWith('/v1/') || path === '/v1/openapi.json' || method === 'OPTIONS' || method === 'HEAD') return;
      const op = operations.find((o) => o.method === method && o.pattern.test(path));
      const what = `${method} ${path} → ${status}`;
      if (!op) {
        // No such operation: the gateway's 404 (unknown path) or 405 (known path, other method).
        if (status !== 404 && status !== 405) fail(what, 'no documented operation, so only 404 or 405 may answer', body);
        const check = validator(`${id}${ERROR_REF}`);
        if (!check(body)) fail(what, explain(check.errors), body);
        seen.set(`(no operation) ${status}`, (seen.get(`(no operation) ${status}`) ?? 0) + 1);
        return;
      }
      if (!op.statuses.has(String(status))) fail(`${what} (${op.key})`, `status ${status} is not documented (documented: ${[...op.statuses].join(', ')})`, body);
      const check = validator(`${op.pointer}/${status}/content/application~1json/schema`);
      if (!check(body)) fail(`${what} (${op.key})`, explain(check.errors), body);
      const code = (body as { meta?: { code?: unknown } } | null)?.meta?.code;
      if (code !== status) fail(`${what} (${op.key})`, `meta.code ${String(code)} is not the HTTP status`, body);
      const key = `${op.key} ${status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    },
    flush() {
      const log = process.env.WAYMARK_TEST_OPENAPI_LOG;
      if (!log || seen.size === 0) return;
      fs.appendFileSync(log, `${JSON.stringify({ operations: operations.map((o) => o.key), seen: Object.fromEntries(seen) })}\n`);
      seen.clear();
    },
  };
}
