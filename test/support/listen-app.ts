// An Express app (or any request listener) on an ephemeral port of 127.0.0.1, for tests that compare
// two apps byte for byte without a whole gateway.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningApp {
  port: number;
  close: () => Promise<void>;
}

export async function listenApp(app: http.RequestListener): Promise<ListeningApp> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
