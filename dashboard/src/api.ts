// The dashboard speaks only the public HTTP API, with the signed-in secret key, so everything it does
// can be done with curl too. Errors arrive as the API's envelope and are surfaced with their message.
export class ApiError extends Error {
  /** The whole error body: some answers carry more than a message (an import's per-row report). */
  constructor(readonly status: number, message: string, readonly param?: string, readonly body?: any) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface Api {
  get<T = any>(path: string, query?: Query): Promise<T>;
  send<T = any>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
  upload<T = any>(path: string, file: Blob, query?: Query): Promise<T>;
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function parse(res: Response): Promise<any> {
  let body: any;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(res.status, `the server answered ${res.status} without a JSON body`);
  }
  if (!res.ok) throw new ApiError(res.status, body?.meta?.message ?? `request failed (${res.status})`, body?.meta?.param, body);
  return body;
}

export function createApi(key: () => string): Api {
  const headers = (extra: Record<string, string> = {}) => ({ Authorization: key(), ...extra });
  return {
    async get(path, query) {
      return parse(await fetch(withQuery(path, query), { headers: headers() }));
    },
    async send(method, path, body) {
      const init: RequestInit = { method, headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }) };
      if (body !== undefined) init.body = JSON.stringify(body);
      return parse(await fetch(path, init));
    },
    async upload(path, file, query) {
      return parse(await fetch(withQuery(path, query), { method: 'POST', headers: headers({ 'content-type': 'text/csv' }), body: file }));
    },
  };
}
