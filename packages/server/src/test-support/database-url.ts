/** DATABASE_URL with another database: a test store's own, or the run's template. */
export function databaseUrl(database: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * An empty PostgreSQL database of its own, for a server process a test starts (the server
 * migrates it as a fresh store and sees no other test's accounts); `drop` removes it, connections
 * and all.
 */
export async function ownDatabase(prefix: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const { randomBytes } = await import('node:crypto');
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    name,
    url: databaseUrl(name),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
