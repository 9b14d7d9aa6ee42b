import { ownDatabase, startServerProcess, type ServerProcess, type StoreKind } from '@plinth/server/test-support';
import type { ServerRequest } from './readme-session.js';

/**
 * The server a newcomer runs with `npm start` in another terminal: the build's `plinth-server` as a
 * process on an empty store, started, stopped and started again as the README's blocks ask. On
 * PostgreSQL the store is a database of its own, which the server migrates as a fresh one and
 * which is dropped afterwards; the embedded store lives in the work directory's `.plinth`.
 */
export class ReadmeServer {
  private process: ServerProcess | undefined;
  private settings: Record<string, string> = {};
  private log = '';

  private constructor(
    private readonly port: number,
    private readonly env: Record<string, string>,
    private readonly dropStore: () => Promise<void>,
  ) {}

  static async create(kind: StoreKind, port: number, dataDir: string, sqlPort: number): Promise<ReadmeServer> {
    // Builds are picked up within 100 ms instead of the default 2 s poll: `--wait` lines wait less. The SQL
    // API listens on a free port rather than 15432, which a newcomer's own `npm start` may hold.
    const env = { PORT: String(port), PLINTH_DATA_DIR: dataDir, PLINTH_JOB_POLL_MS: '100', PLINTH_SQL_PORT: String(sqlPort) };
    if (kind === 'pglite') return new ReadmeServer(port, env, async () => undefined);
    const database = await ownDatabase('plinth_readme');
    return new ReadmeServer(port, { ...env, DATABASE_URL: database.url }, database.drop);
  }

  /** What `plinth-server accounts` needs to reach the same store from the session: its DATABASE_URL. */
  get storeEnv(): Record<string, string> {
    return this.env.DATABASE_URL ? { DATABASE_URL: this.env.DATABASE_URL } : {};
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Everything every start of it printed. */
  get output(): string {
    return this.log + (this.process?.output() ?? '');
  }

  async serve(request: ServerRequest): Promise<boolean> {
    await this.stop();
    if (request.kind === 'stop') return true;
    if (request.kind === 'start') this.settings = request.settings;
    this.process = await startServerProcess({ ...this.env, ...this.settings });
    return this.process.child.exitCode === null && this.process.output().includes('Plinth is ready at ');
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (!running) return;
    this.process = undefined;
    this.log += running.output();
    if (running.child.exitCode === null) {
      running.child.kill('SIGTERM');
      await running.exited;
    }
  }

  async close(): Promise<void> {
    await this.stop();
    await this.dropStore();
  }
}
