import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/**
 * Set up for every test file (vitest.config.ts): on PostgreSQL, a query sent to a pg client that
 * is still running one fails the file. pg only warns today (once per process, so most overlaps
 * would go unseen) and pg 9 refuses them; the condition checked is pg's own.
 *
 * Test files share their process (vitest runs them without isolation), so pg's client is patched
 * once per process and each file reports the overlaps seen while it ran.
 */
const seen = Symbol.for('plinth.pgOverlaps');
type Patched = { [seen]?: string[] };

if (process.env.DATABASE_URL) {
  const holder = globalThis as Patched;
  if (!holder[seen]) {
    const overlaps: string[] = (holder[seen] = []);
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client & { _queryQueue?: unknown[]; pipeline?: boolean }, ...args: unknown[]) {
      if ((this._queryQueue?.length ?? 0) > 0 && !this.pipeline) {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
        overlaps.push(`${String(text).replace(/\s+/g, ' ').slice(0, 120)}\n${new Error().stack?.split('\n').slice(2, 8).join('\n')}`);
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  }
  const overlaps = holder[seen];
  beforeAll(() => {
    overlaps.length = 0;
  });
  afterAll(() => {
    if (overlaps.length > 0) throw new Error(`Queries overlapped on one pg client (pg 9 refuses this):\n${overlaps.join('\n\n')}`);
  });
}
