// One HTTP exchange over a raw socket, for requests fetch cannot send as they are (a chunked body cut at
// chosen points, a Content-Type with odd parameters, bytes that are not UTF-8), and the answer as the
// bytes that came back. The Date header and random request ids are blanked so two servers' answers
// can be compared byte for byte.
import net from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The body in pieces, written one after another (latin1: one character per byte). */
  body?: string[];
  /** Send the pieces as chunked transfer coding instead of with a Content-Length. */
  chunked?: boolean;
}

function chunk(piece: string): string {
  return `${Buffer.byteLength(piece, 'latin1').toString(16)}\r\n${piece}\r\n`;
}

/** Sends the request (Connection: close) and resolves with everything the server wrote. */
export function exchange(port: number, req: RawRequest): Promise<string> {
  const pieces = req.body ?? [];
  const headers: Record<string, string> = { Host: 'test', Connection: 'close', ...(req.headers ?? {}) };
  if (req.chunked) headers['Transfer-Encoding'] = 'chunked';
  else if (req.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['Content-Length'] = String(Buffer.byteLength(pieces.join(''), 'latin1'));
  const head = `${req.method} ${req.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  const writes = req.chunked ? [head, ...pieces.map(chunk), '0\r\n\r\n'] : [head, ...pieces];
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(received).toString('latin1')));
    let i = 0;
    const writeNext = (): void => {
      if (i >= writes.length) return;
      socket.write(writes[i++], 'latin1');
      // Separate writes arrive as separate reads on the server: the body comes in pieces.
      setTimeout(writeNext, 5);
    };
    socket.once('connect', writeNext);
  });
}

/** The answer with what differs between two runs of the same request blanked: the date and generated ids. */
export function comparable(answer: string): string {
  return answer
    .replace(/^Date: .*\r\n/gim, 'Date: -\r\n')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
}

/** Status line of an answer, e.g. "HTTP/1.1 413 Payload Too Large". */
export function statusLine(answer: string): string {
  return answer.slice(0, answer.indexOf('\r\n'));
}

/** The JSON body of an answer (after the blank line). */
export function jsonBodyOf(answer: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8')) as Record<string, unknown>;
}
