// Requests Node rejects before Express sees them (headers over 16 KiB → 431, malformed HTTP → 400)
// would otherwise get an empty body; clients of ours always get the JSON envelope.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

interface ClientError extends Error {
  code?: string;
}

export function answerClientError(err: ClientError, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const message = tooLarge ? 'Request headers are too large' : 'Malformed HTTP request';
  const body = JSON.stringify({ meta: { code: status, message, param: tooLarge ? 'headers' : 'request' } });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}
