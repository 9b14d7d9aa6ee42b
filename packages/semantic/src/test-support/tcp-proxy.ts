import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/** How a cut ends a connection: an orderly close (FIN), or a reset (RST) as a dropped host's stack sends. */
export type CutKind = 'close' | 'reset';

/**
 * A TCP proxy in front of a real server, so a test can take the network away from a client that
 * only knows the proxy's port: `cut` ends every open connection on both sides, `refuse` also ends
 * each new one as soon as it arrives (the server is gone) until `accept`.
 */
export class TcpProxy {
  private readonly pairs = new Set<[Socket, Socket]>();
  private refusing: CutKind | null = null;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const proxy = new TcpProxy(server, (server.address() as { port: number }).port);
    server.on('connection', (client: Socket) => proxy.forward(client, target));
    return proxy;
  }

  /** Ends every connection open now, both the client's side and the server's. */
  cut(kind: CutKind = 'close'): void {
    for (const pair of this.pairs) for (const socket of pair) end(socket, kind);
    this.pairs.clear();
  }

  /** Cuts every connection and ends each new one at once: the server is unreachable. */
  refuse(kind: CutKind = 'close'): void {
    this.refusing = kind;
    this.cut(kind);
  }

  /** Forwards new connections again: the server is back. */
  accept(): void {
    this.refusing = null;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(client: Socket, target: { host: string; port: number }): void {
    if (this.refusing) return end(client, this.refusing);
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    // One side failing ends the other, as the far end of a dead link would see it.
    for (const [from, to] of [pair, [upstream, client]] as const) {
      from.on('error', () => to.destroy());
      from.on('close', () => {
        to.destroy();
        this.pairs.delete(pair);
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

function end(socket: Socket, kind: CutKind): void {
  if (kind === 'reset' && !socket.destroyed) socket.resetAndDestroy();
  else socket.destroy();
}
