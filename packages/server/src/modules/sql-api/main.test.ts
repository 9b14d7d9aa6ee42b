import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../test-support/index.js';

it('plinth-server listens for PostgreSQL clients on PLINTH_SQL_PORT and says where in its start line', async () => {
  const sqlPort = await freePort();
  const server = await startServerProcess({
    PLINTH_DATA_DIR: mkdtempSync(join(tmpdir(), 'plinth-sql-main-')),
    PLINTH_SQL_PORT: String(sqlPort),
    PLINTH_DEMO: '0',
  });
  try {
    expect(server.output()).toContain(
      `Plinth is ready at http://127.0.0.1:${server.port} (account "demo"). SQL API (PostgreSQL wire) at 127.0.0.1:${sqlPort}.\n`,
    );
    const client = new pg.Client({ host: '127.0.0.1', port: sqlPort, database: 'deployment-424242', user: 'token', password: 'x' });
    const refused = await client.connect().then(
      () => 'connected',
      (error: { code?: string }) => error.code,
    );
    expect(refused).toBe('3D000');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
