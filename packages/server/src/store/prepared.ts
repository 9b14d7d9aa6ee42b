import { createHash } from 'node:crypto';
import type { PostgresPool } from 'kysely';
import type pg from 'pg';

/**
 * Marks a statement to be prepared once per connection: PostgreSQL then parses and plans it once
 * instead of on every call. Only for a few hot, fixed statements (every distinct text stays
 * prepared on every pooled connection); PGlite ignores the comment.
 */
export const PREPARED = '/* prepared */';

/**
 * A pool whose clients run statements that start with PREPARED as named prepared statements,
 * named by a digest of their text so that two texts never share a name.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const patched = new WeakSet<pg.PoolClient>();
  return {
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      if (!patched.has(client)) {
        patched.add(client);
        // A connection lost while checked out fails its statement, and pg also emits 'error' on the
        // client: unheard, that ends the process and every tenant with it. The pool drops the client.
        client.on('error', () => {});
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) =>
          typeof text === 'string' && text.startsWith(PREPARED)
            ? query({ name: `plinth_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`, text, values: rest[0] })
            : query(text, ...rest);
      }
      return client;
    },
  };
}
