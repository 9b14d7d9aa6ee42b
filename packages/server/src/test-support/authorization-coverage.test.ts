import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.js';

const MODULES = fileURLToPath(new URL('../modules', import.meta.url));

/**
 * The operations each module's test file hands the shared authorisation suite: the `operation`
 * of every case in a test file that runs `authorizationSuite`, on both stores like any test of it.
 */
function suiteCases(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) {
        const source = readFileSync(path, 'utf8');
        if (!source.includes('authorizationSuite(')) continue;
        for (const match of source.matchAll(/operation: '(\w+)'/g)) found.set(match[1]!, path.slice(MODULES.length + 1));
      }
    }
  };
  walk(MODULES);
  return found;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite');
});
afterAll(async () => {
  await server.app.close();
  await server.store.close();
});

/** Like the CLI's operations.test.ts for commands: a new operation fails here until the suite covers it. */
it('every non-public operation of the served spec has a case in the shared authorisation suite, with its permission stated', async () => {
  const account = await server.newAccount();
  const spec = await account.request({ method: 'GET', url: '/api/v1/spec' });
  expect(spec.status).toBe(200);
  const cases = suiteCases();
  const missing: string[] = [];
  const unstated: string[] = [];
  for (const methods of Object.values(spec.body.paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(methods)) {
      if (!operation.security || operation.security.length === 0) continue;
      if (!cases.has(operation.operationId)) missing.push(operation.operationId);
      if (typeof operation['x-plinth-permission'] !== 'string' || !/Requires the `\w+` permission/.test(operation.description)) {
        unstated.push(operation.operationId);
      }
    }
  }
  expect(missing.sort()).toEqual([]);
  expect(unstated.sort()).toEqual([]);
});

it('every case names an authenticated operation of the app', () => {
  for (const [operation, file] of suiteCases()) {
    const auth = server.app.operationAuth.get(operation);
    expect(auth !== undefined && auth !== 'public', `${operation} (${file})`).toBe(true);
  }
});
