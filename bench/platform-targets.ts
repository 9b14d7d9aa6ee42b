/**
 * The servers the platform benchmarks load: bare Fastify answering a constant, and a Plinth
 * server with one OAuth integration read by an API key (on PGlite or PostgreSQL).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER = join(ROOT, 'packages/server/dist/main.js');
const BARE = join(ROOT, 'bench/bare-server.mjs');
const KEY = 'sk-benchbenchbenchbenchbenchbench01';

export interface Target {
  url: string;
  headers?: Record<string, string>;
  /** The server's process, whose CPU time a benchmark may read. */
  pid: number;
  stop(): Promise<void>;
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
