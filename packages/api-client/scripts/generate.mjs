#!/usr/bin/env node
// Writes src/spec.ts, the types of the platform API, from the OpenAPI document the built server
// serves at GET /api/v1/spec. A step of `npm run build` (after the server's build), and
// `npm run generate:client` on its own. Nothing is fetched: the server is built in this process on
// a throwaway embedded store, and the document is read from it as a client would.
//   node packages/api-client/scripts/generate.mjs [--check]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const CLIENT_FILE = fileURLToPath(new URL('../src/spec.ts', import.meta.url));
export const REGENERATE = 'npm run generate:client';

const HEADER = `// The types of the Plinth platform API, generated from the OpenAPI document that GET /api/v1/spec
// serves. Do not edit: \`${REGENERATE}\` writes it again from the server's route schemas (so does
// \`npm run build\`), and src/spec.test.ts fails when it differs from what the server serves.
`;

/** The TypeScript source of the client's types for an OpenAPI document. */
export async function clientSource(document) {
  // The document is an object already: nothing for the generator to read or resolve outside it.
  const ast = await openapiTS(document, { silent: true });
  return `${HEADER}\n${astToString(ast)}`;
}

/** The document a server built from packages/server/dist serves, on an embedded store of its own. */
export async function servedSpec() {
  const dist = (path) => pathToFileURL(fileURLToPath(new URL(`../../server/dist/${path}`, import.meta.url))).href;
  const [{ openStore }, { migrateToLatest }, { loadConfig }, { createServices }, { buildApp }] = await Promise.all([
    import(dist('store/store.js')),
    import(dist('store/migrate.js')),
    import(dist('config.js')),
    import(dist('services.js')),
    import(dist('app.js')),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'plinth-client-'));
  const store = await openStore({ kind: 'pglite', dataDir: join(dir, 'store') });
  try {
    await migrateToLatest(store);
    // Only the environment's defaults: the document must not depend on who builds it.
    const config = loadConfig({ PLINTH_DATA_DIR: dir });
    const app = await buildApp({ config, store, services: await createServices(store, config), log: false });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/v1/spec' });
      if (response.statusCode !== 200) throw new Error(`GET /api/v1/spec answered ${response.statusCode}: ${response.body}`);
      return JSON.parse(response.body);
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function committed() {
  try {
    return readFileSync(CLIENT_FILE, 'utf8');
  } catch {
    return undefined;
  }
}

async function main() {
  const source = await clientSource(await servedSpec());
  const current = committed();
  if (current === source) return;
  // With --check, and in CI, the file stays as committed, so the drift test judges what was committed.
  if (process.argv.includes('--check') || (process.env.CI && current !== undefined)) {
    process.stderr.write(`packages/api-client/src/spec.ts differs from the served spec: run \`${REGENERATE}\` and commit it\n`);
    if (process.argv.includes('--check')) process.exitCode = 1;
    return;
  }
  writeFileSync(CLIENT_FILE, source);
  process.stdout.write(`Wrote the API client's types: ${CLIENT_FILE}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
