import { randomInt } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { TlsOptions } from 'pg-gateway';
import type { RequestPipeline } from '../../pipeline/pipeline.js';
import type { SqlCaller } from './callers.js';
import { serveConnection } from './connection.js';
import type { SqlCredentials } from './credentials.js';
import type { Served } from './plans.js';
import type { SqlSession } from './session.js';

/** The user and database a client connected as, by the names it gave. */
export interface SqlLoginName {
  user: string;
  database: string;
}

/** What a connection needs of the server. */
export interface SqlListenerDeps {
  pipeline: RequestPipeline;
  credentials: SqlCredentials;
  served: (caller: SqlCaller, login: SqlLoginName) => Promise<Served>;
  keys: CancelKeys;
  tls: TlsOptions | undefined;
  /** Read at each connection's start: whether one that did not ask for TLS is refused. */
  tlsRequired: () => boolean;
  log: (error: unknown) => void;
}

export interface CancelKey {
  pid: number;
  secret: number;
}

/**
 * The BackendKeyData of each open session, so a CancelRequest (which arrives on a connection of
 * its own, naming a process id and a secret) cancels the statement of the session it names and no other.
 */
export class CancelKeys {
  private nextPid = 1;
  private readonly sessions = new Map<number, { secret: number; session?: SqlSession }>();

  next(): CancelKey {
    const pid = this.nextPid;
    this.nextPid = this.nextPid >= 2_147_483_646 ? 1 : this.nextPid + 1;
    const key = { pid, secret: randomInt(1, 2_147_483_647) };
    this.sessions.set(pid, { secret: key.secret });
    return key;
  }

  register(key: CancelKey, session: SqlSession): void {
    const entry = this.sessions.get(key.pid);
    if (entry && entry.secret === key.secret) entry.session = session;
  }

  cancel(pid: number, secret: number): void {
    const entry = this.sessions.get(pid);
    if (entry && entry.secret === secret) entry.session?.cancel();
  }

  forget(key: CancelKey): void {
    if (this.sessions.get(key.pid)?.secret === key.secret) this.sessions.delete(key.pid);
  }

  get size(): number {
    return this.sessions.size;
  }
}

/** The PostgreSQL-wire listener: a TCP server whose every connection is served by serveConnection. */
export class SqlListener {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly deps: SqlListenerDeps) {}

  async listen(port: number, host: string): Promise<AddressInfo> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      // A peer that resets or breaks the connection ends this connection only.
      socket.on('error', () => socket.destroy());
      socket.once('close', () => this.sockets.delete(socket));
      serveConnection(socket, this.deps).catch((error: unknown) => {
        this.deps.log(error);
        socket.destroy();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.deps.log(error));
    return server.address() as AddressInfo;
  }

  get address(): AddressInfo | undefined {
    return (this.server?.address() as AddressInfo | null) ?? undefined;
  }

  /** Sessions open now (each connection from its start to its close). */
  get openSessions(): number {
    return this.deps.keys.size;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
