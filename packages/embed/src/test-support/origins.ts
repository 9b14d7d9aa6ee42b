import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  body: string;
  type?: string;
  headers?: Record<string, string>;
}
export type Routes = Record<string, (url: URL) => Reply>;

export interface Origin {
  /** `http://127.0.0.1:<port>`: each server is an origin of its own (the port is part of the origin). */
  origin: string;
  close(): Promise<void>;
}

/** A local HTTP server answering GETs of the given paths; anything else is a 404. */
export async function serveOrigin(routes: Routes): Promise<Origin> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const route = Object.entries(routes).find(([path]) =>
      path.endsWith('*') ? url.pathname.startsWith(path.slice(0, -1)) : url.pathname === path,
    );
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const reply = route[1](url);
    response.writeHead(200, { 'content-type': reply.type ?? 'text/html; charset=utf-8', 'cache-control': 'no-store', ...reply.headers });
    response.end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
