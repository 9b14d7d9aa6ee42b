import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresWarehouse, WarehouseUnreachableError } from './postgres.js';

const url = process.env.DATABASE_URL;

describe('PostgresWarehouse: a warehouse that cannot be reached fails in bounded time, naming its host', () => {
  let silent: Server;
  const held: Socket[] = [];
  let port = 0;
  beforeAll(async () => {
    silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    port = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('a host that accepts and never answers: WarehouseUnreachableError after the connect timeout', async () => {
    const warehouse = new PostgresWarehouse({ connectionString: `postgres://u:secret@127.0.0.1:${port}/db`, connectTimeoutMs: 200 });
    try {
      const error = await warehouse.query('select 1', []).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WarehouseUnreachableError);
      expect((error as Error).message).toBe(`Cannot connect to the PostgreSQL warehouse at 127.0.0.1:${port}: no answer within 200 ms`);
      // The password of the connection string never reaches the message.
      expect((error as Error).message).not.toContain('secret');
    } finally {
      await warehouse.close();
    }
  });

  it.skipIf(!url)('a query waiting for a busy pool is not an unreachable warehouse: it waits past the connect timeout', async () => {
    const warehouse = new PostgresWarehouse({ connectionString: url!, max: 1, connectTimeoutMs: 200 });
    try {
      const [slow, queued] = await Promise.all([
        warehouse.query('select pg_sleep(0.6) is null as slept', []),
        warehouse.query('select 42 as answer', []),
      ]);
      expect(slow.rows).toEqual([{ slept: false }]);
      expect(queued.rows).toEqual([{ answer: 42 }]);
    } finally {
      await warehouse.close();
    }
  });
});
