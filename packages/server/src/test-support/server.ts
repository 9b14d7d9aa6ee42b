import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type PlinthApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { createJobRunner } from '../jobs/index.js';
import type { JobRunner } from '../jobs/runner.js';
import { createServices, type Services } from '../services.js';
import type { Store, StoreKind } from '../store/store.js';
import type { Role } from '../store/schema.js';
import { openTestStore, storeKinds } from './stores.js';

export const TEST_BASE_DOMAIN = 'plinth.test';

export interface TestServer {
  kind: StoreKind;
  app: PlinthApp;
  store: Store;
  services: Services;
  config: Config;
  /** The job runner, never started: tests run due jobs with `jobs.runUntilIdle()`. */
  jobs: JobRunner;
  /** A fresh account with an admin and a member, each holding an API key. */
  newAccount(): Promise<TestAccount>;
  /** Closes the app and the store, and removes the data dir the server was given unless the test named one. */
  close(): Promise<void>;
}

export interface TestUser {
  id: number;
  email: string;
  apiKey: string;
  apiKeyId: number;
}

export interface TestAccount {
  id: number;
  name: string;
  host: string;
  admin: TestUser;
  member: TestUser;
  /** Another user of the account, with the given role and its own key. */
  addUser(role: Role): Promise<TestUser>;
  /** An access token (Bearer) for a user of this account. */
  accessToken(user: TestUser): Promise<string>;
  scimToken(): Promise<string>;
  /** A request to this account's host. `as` is a user (Api-Key), a raw Authorization value, or null. */
  request(options: AccountRequest): Promise<TestResponse>;
}

export interface AccountRequest {
  method: InjectOptions['method'];
  url: string;
  as?: TestUser | string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  body: any;
  headers: LightMyRequestResponse['headers'];
  text: string;
}

/** What tests let tenants reach: this machine's loopback addresses. */
export const LOCAL_EGRESS = '127.0.0.0/8,::1,localhost';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    PLINTH_BASE_DOMAIN: TEST_BASE_DOMAIN,
    PLINTH_TENANT: 'demo',
    PLINTH_DATA_DIR: '/tmp/plinth-test-unused',
    // The stand-ins for GitHub, issuers, providers and LLMs listen on this machine, and test
    // repositories are local paths; the egress tests turn both off again.
    PLINTH_EGRESS_ALLOW: LOCAL_EGRESS,
    PLINTH_ALLOW_LOCAL_REPOSITORIES: '1',
    ...overrides,
  });
}

/**
 * Runs `body` once per store kind, each with its own migrated store and app. Tests inside make
 * their own accounts, so they never depend on one another.
 */
export function describeOnStores(name: string, body: (server: () => TestServer) => void, configOverrides?: Record<string, string>) {
  describe.each(storeKinds)(`${name} [%s]`, (kind) => {
    let server: TestServer | undefined;
    beforeAll(async () => {
      server = await startTestServer(kind, configOverrides);
    });
    afterAll(async () => {
      await server?.close();
    });
    body(() => {
      if (!server) throw new Error('test server not started');
      return server;
    });
  });
}

/**
 * A server on a store of its own, with a data dir of its own unless `configOverrides` names one:
 * deployment ids restart with every store, and a deployment's embedded warehouse is a file named by
 * its id, so two servers sharing a dir would share (and delete) each other's warehouses.
 */
export async function startTestServer(kind: StoreKind, configOverrides: Record<string, string> = {}): Promise<TestServer> {
  const ownDataDir = configOverrides.PLINTH_DATA_DIR === undefined ? mkdtempSync(join(tmpdir(), 'plinth-test-')) : undefined;
  const config = testConfig({ ...(ownDataDir ? { PLINTH_DATA_DIR: ownDataDir } : {}), ...configOverrides });
  const store = await openTestStore(kind);
  const services = await createServices(store, config);
  const app = await buildApp({ config, store, services, log: false });
  await app.ready();
  const jobs = createJobRunner({ store, services, config });
  return {
    kind,
    app,
    store,
    services,
    config,
    jobs,
    newAccount: () => createTestAccount(app, services),
    async close() {
      await app.close();
      await store.close();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

export async function createTestAccount(app: PlinthApp, services: Services): Promise<TestAccount> {
  // Ends in a letter: `acct-<digits>` would be a deployment's host (`<slug>-<id>`, http/deployment-hosts.ts).
  const name = `acct-${randomBytes(5).toString('hex')}x`;
  const account = await services.accounts.create(name);
  const host = `${name}.${TEST_BASE_DOMAIN}`;

  const addUser = async (role: Role): Promise<TestUser> => {
    const email = `${role}-${randomBytes(4).toString('hex')}@${name}.example.com`;
    const user = await services.users.create(account.id, { email, role, displayName: `${role} user` });
    const key = await services.credentials.createApiKey(account.id, user.id, { name: `${role} key`, role, deploymentIds: null });
    return { id: user.id, email, apiKey: key.key, apiKeyId: key.id };
  };

  const admin = await addUser('admin');
  const member = await addUser('member');
  return {
    id: account.id,
    name,
    host,
    admin,
    member,
    addUser,
    accessToken: async (user) => (await services.credentials.issueAccessToken(account.id, user.id)).accessToken,
    scimToken: async () => (await services.credentials.createScimToken(account.id, admin.id, 'test')).token,
    request: async ({ method, url, as, body, headers }) => {
      const authorization = as === undefined || as === null ? undefined : typeof as === 'string' ? as : `Api-Key ${as.apiKey}`;
      const response = await app.inject({
        method,
        url,
        headers: { host, ...(authorization ? { authorization } : {}), ...headers },
        ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
      });
      let parsed: unknown;
      try {
        parsed = response.body ? JSON.parse(response.body) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.statusCode, body: parsed, headers: response.headers, text: response.body };
    },
  };
}
