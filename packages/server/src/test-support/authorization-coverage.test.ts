import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isResourceSource } from '../http/requirement.js';
import { startTestServer, type TestServer } from './server.js';
import type { OperationCase } from './authorization.js';
import { cases as agents } from '../modules/agents/authorization.cases.js';
import { cases as aiEngineer } from '../modules/ai-engineer/authorization.cases.js';
import { cases as builds } from '../modules/builds/authorization.cases.js';
import { cases as ciGate } from '../modules/ci-gate/authorization.cases.js';
import { cases as credentials } from '../modules/credentials/authorization.cases.js';
import { cases as dataApi } from '../modules/data-api/authorization.cases.js';
import { cases as dataModel } from '../modules/data-model/authorization.cases.js';
import { cases as deploymentLogs } from '../modules/deployment-logs/authorization.cases.js';
import { cases as deploymentTokens } from '../modules/deployment-tokens/authorization.cases.js';
import { cases as deployments } from '../modules/deployments/authorization.cases.js';
import { cases as deploymentVariables } from '../modules/deployment-variables/authorization.cases.js';
import { cases as dbt } from '../modules/dbt/authorization.cases.js';
import { cases as embed } from '../modules/embed/authorization.cases.js';
import { cases as embedTenants } from '../modules/embed-tenants/authorization.cases.js';
import { cases as github } from '../modules/github/authorization.cases.js';
import { cases as groups } from '../modules/groups/authorization.cases.js';
import { cases as login } from '../modules/login/authorization.cases.js';
import { cases as metadata } from '../modules/metadata/authorization.cases.js';
import { cases as modelUploads } from '../modules/model-uploads/authorization.cases.js';
import { cases as oauthIntegrations } from '../modules/oauth-integrations/authorization.cases.js';
import { cases as oidcTokenConfigs } from '../modules/oidc-token-configs/authorization.cases.js';
import { cases as resourcePolicies } from '../modules/resource-policies/authorization.cases.js';
import { cases as scim } from '../modules/scim/authorization.cases.js';
import { cases as tenantSettings } from '../modules/tenant-settings/authorization.cases.js';
import { cases as userAttributes } from '../modules/user-attributes/authorization.cases.js';
import { cases as users, embedThemeCases } from '../modules/users/authorization.cases.js';
import { cases as workbooks } from '../modules/workbooks/authorization.cases.js';
import { cases as appTheme } from '../modules/app-theme/authorization.cases.js';
import { cases as folders } from '../modules/folders/authorization.cases.js';
import { cases as reports } from '../modules/reports/authorization.cases.js';
import { cases as workspace } from '../modules/workspace/authorization.cases.js';
import { cases as userOAuthTokens } from '../modules/user-oauth-tokens/authorization.cases.js';

const MODULES = fileURLToPath(new URL('../modules', import.meta.url));

/** Each module's cases for the shared authorisation suite, by the module's folder. */
const CASES: Record<string, OperationCase[]> = {
  agents,
  'ai-engineer': aiEngineer,
  builds,
  'ci-gate': ciGate,
  credentials,
  'data-api': dataApi,
  'data-model': dataModel,
  'deployment-logs': deploymentLogs,
  'deployment-tokens': deploymentTokens,
  deployments,
  'deployment-variables': deploymentVariables,
  dbt,
  embed,
  'embed-tenants': embedTenants,
  github,
  groups,
  login,
  metadata,
  'model-uploads': modelUploads,
  'oauth-integrations': oauthIntegrations,
  'oidc-token-configs': oidcTokenConfigs,
  'resource-policies': resourcePolicies,
  scim,
  'tenant-settings': tenantSettings,
  'user-attributes': userAttributes,
  // The embed theme's cases run in users/embed-theme.test.ts.
  users: [...users, ...embedThemeCases],
  workbooks,
  'app-theme': appTheme,
  folders,
  reports,
  workspace,
  'user-oauth-tokens': userOAuthTokens,
};

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

/**
 * Surfaces that refuse with their own statuses run their own authorisation tests instead of the
 * shared suite (built on API keys and 401s): the data API answers every refusal with Cube's 403s.
 * Each names the test file that checks a missing header, a bad token and another deployment's token.
 */
const OWN_SUITES: Record<string, { file: string; marker: string }> = {
  'data-api': { file: 'routes.test.ts', marker: "Authorization header isn't set" },
};

/** A case list nobody runs would cover operations on paper only. */
it('every module with a case file is listed here and runs its cases in one of its own test files, on both stores', () => {
  const withCases = readdirSync(MODULES).filter((module) => existsSync(join(MODULES, module, 'authorization.cases.ts')));
  expect(withCases.sort()).toEqual(Object.keys(CASES).sort());
  for (const module of withCases) {
    const own = OWN_SUITES[module];
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
