/**
 * The servers the platform benchmarks load: bare Fastify answering a constant, and a Plinth
 * server with one OAuth integration read by an API key (on PGlite or PostgreSQL).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { spawnServer } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER = join(ROOT, 'packages/server/dist/main.js');
const BARE = join(ROOT, 'bench/bare-server.mjs');
const KEY = 'sk-benchbenchbenchbenchbenchbench01';
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Target {
  url: string;
  headers?: Record<string, string>;
  /** The server's process, whose CPU time a benchmark may read. */
  pid: number;
  stop(): Promise<void>;
}

/** A database of its own on the benchmark's PostgreSQL, made afresh; answers its URL. */
export async function freshPostgres(name: string): Promise<string> {
  const admin = new pg.Client(PG_ADMIN_URL);
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
}

export async function bareTarget(): Promise<Target> {
  const bare = await spawnServer(BARE, {});
  return { url: `http://127.0.0.1:${bare.port}/constant`, pid: bare.child.pid!, stop: bare.stop };
}

/** A Plinth server with one OAuth integration, and the URL that reads it. */
export async function integrationTarget(env: Record<string, string>): Promise<Target> {
  const server = await spawnServer(SERVER, { ...env, PLINTH_BOOTSTRAP_API_KEY: KEY });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const headers = { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/oauth-integrations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'bench',
        type: 'snowflake',
        authUrl: 'https://a.example.com/auth',
        tokenUrl: 'https://a.example.com/token',
        clientId: 'client',
        clientSecret: 'secret',
        redirectUri: 'https://a.example.com/cb',
        scopes: ['a'],
        config: { x: 1 },
      }),
    });
    const { id } = (await created.json()) as { id: number };
    return { url: `${base}/api/v1/oauth-integrations/${id}`, headers, pid: server.child.pid!, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
