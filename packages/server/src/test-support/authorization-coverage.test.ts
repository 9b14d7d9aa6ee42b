import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isResourceSource } from '../http/requirement.js';
import { startTestServer, type TestServer } from './server.js';
import type { OperationCase } from './authorization.js';

const MODULES = fileURLToPath(new URL('../modules', import.meta.url));

/** What a module's authorization.cases.ts offers the coverage checks. */
interface CaseFile {
  cases: OperationCase[];
  /** Every case its suites run, when more than `cases` (users' adds the embed theme's). */
  coverage?: OperationCase[];
  /** A surface that refuses with statuses of its own runs its own authorisation tests instead (see below). */
  ownSuite?: { file: string; marker: string };
}

/**
 * Each module's cases for the shared authorisation suite, by the module's folder: every folder
 * with an authorization.cases.ts is read, so a new module's cases need no line here.
 */
const FILES: Record<string, CaseFile> = Object.fromEntries(
  await Promise.all(
    readdirSync(MODULES)
      .filter((module) => existsSync(join(MODULES, module, 'authorization.cases.ts')))
      .sort()
      .map(async (module) => [module, (await import(join(MODULES, module, 'authorization.cases.ts'))) as CaseFile] as const),
  ),
);
const CASES: Record<string, OperationCase[]> = Object.fromEntries(
  Object.entries(FILES).map(([module, file]) => [module, file.coverage ?? file.cases]),
);

const covered = new Map(Object.entries(CASES).flatMap(([module, cases]) => cases.map((c) => [c.operation, module] as const)));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite');
});
afterAll(async () => {
  await server.close();
});

/** Like the CLI's operations.test.ts for commands: a new operation fails here until the suite covers it. */
it('every non-public operation of the served spec has a case in the shared authorisation suite, with its permission stated', async () => {
  const account = await server.newAccount();
  const spec = await account.request({ method: 'GET', url: '/api/v1/spec' });
  expect(spec.status).toBe(200);
  const missing: string[] = [];
  const unstated: string[] = [];
  for (const methods of Object.values(spec.body.paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(methods)) {
      if (!operation.security || operation.security.length === 0) continue;
      if (!covered.has(operation.operationId)) missing.push(operation.operationId);
      if (typeof operation['x-plinth-permission'] !== 'string' || !/Requires the `\w+` permission/.test(operation.description)) {
        unstated.push(operation.operationId);
      }
    }
  }
  expect(missing.sort()).toEqual([]);
  expect(unstated.sort()).toEqual([]);
});

it('every case names an authenticated operation of the app, once', () => {
  const all = Object.values(CASES)
    .flat()
    .map((c) => c.operation);
  expect(all.length).toBe(new Set(all).size);
  for (const [operation, module] of covered) {
    const auth = server.app.operationAuth.get(operation);
    expect(auth !== undefined && auth !== 'public', `${operation} (${module})`).toBe(true);
  }
});

/** The suite's checks of keys limited to deployments follow each route's resource: none may leave it out. */
it("every authenticated operation of the app says whether it is account-wide, on a deployment or within the caller's scope", () => {
  const undeclared = [...server.app.operationAuth]
    .filter(([, auth]) => auth !== 'public' && !isResourceSource(auth.resource))
    .map(([operation]) => operation);
  expect(undeclared).toEqual([]);
});

/** A case list nobody runs would cover operations on paper only. */
/**
 * Surfaces that refuse with their own statuses run their own authorisation tests instead of the
 * shared suite (built on API keys and 401s): the data API answers every refusal with Cube's 403s.
 * Such a module's case file names (`ownSuite`) the test file that checks a missing header, a bad
 * token and another deployment's token.
 */
it('every module with a case file runs its cases in one of its own test files, on both stores', () => {
  for (const module of Object.keys(FILES)) {
    expect(Array.isArray(FILES[module]!.cases), `${module} exports its cases`).toBe(true);
    const own = FILES[module]!.ownSuite;
    if (own) {
      const source = readFileSync(join(MODULES, module, own.file), 'utf8');
      expect(source.includes(own.marker) && source.includes('describeOnStores('), module).toBe(true);
      continue;
    }
    const runners = readdirSync(join(MODULES, module))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => readFileSync(join(MODULES, module, file), 'utf8'))
      .filter(
        (source) =>
          source.includes("from './authorization.cases.js'") &&
          source.includes('authorizationSuite(server, cases)') &&
          source.includes('describeOnStores('),
      );
    expect(runners.length, module).toBeGreaterThan(0);
  }
});
