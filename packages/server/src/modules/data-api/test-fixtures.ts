import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleModelFiles, writeSample, type QueryOptions, type Warehouse } from '@plinth/semantic';
import { vi } from 'vitest';
import type { DataTokenPrincipal } from '../../http/principal.js';
import { contextFor } from '../../pipeline/context.js';
import type { TestAccount, TestServer, TestUser } from '../../test-support/server.js';
import { adminOf, commitFiles, createBranch, newDeployment } from '../builds/test-fixtures.js';
import { DataApiService } from './service.js';
import { countCube } from '../../test-support/models.js';

/** A data dir of its own per test file: each deployment's embedded warehouse is a file under it. */
export const dataDirOverride = () => ({ PLINTH_DATA_DIR: mkdtempSync(join(tmpdir(), 'plinth-data-api-')) });

/** A data API token's principal as its verifier makes it. */
export const tokenOf = (accountId: number, deploymentId: number, securityContext: Record<string, unknown> = {}): DataTokenPrincipal => ({
  kind: 'dataToken',
  accountId,
  claims: { deploymentId, securityContext, expiresAt: null },
});

/** A token's request context and the deployment it was minted for, as a data API route gives them to the service. */
export const asToken = (principal: DataTokenPrincipal) => [contextFor(principal), { deploymentId: principal.claims.deploymentId }] as const;

/**
 * A deployment whose deploy branch holds the engine's sample model, built, and whose embedded
 * warehouse holds a small sample dataset, written as every writer of it does (Warehouses.write).
 */
export async function sampleDeployment(server: TestServer, service: DataApiService, files = sampleModelFiles()) {
  const account = await server.newAccount();
  const deploymentId = await newDeployment(account);
  await commitFiles(server.services, adminOf(account), deploymentId, files);
  await server.jobs.runUntilIdle();
  await service.warehouses.write(account.id, deploymentId, (warehouse) => writeSample(warehouse, { lineItems: 400 }));
  return { account, deploymentId, principal: tokenOf(account.id, deploymentId) };
}

/** A data API token minted through `deploymentToken`, by the admin's key unless `as` names another. */
export async function mint(account: TestAccount, deploymentId: number, body: Record<string, unknown> = {}, as: TestUser = account.admin) {
  const response = await account.request({ method: 'POST', url: `/api/v1/deployments/${deploymentId}/token`, as, body });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${response.text}`);
  return response.body.cubeApiToken as string;
}

/** main built from the sample, and a shared branch `staging` enabled as a staging environment and built. */
export async function withStaging(server: TestServer) {
  const set = await sampleDeployment(server, server.services.dataApi);
  const { account, deploymentId } = set;
  await createBranch(account, deploymentId, 'staging');
  const enable = await account.request({
    method: 'POST',
    url: `/build/api/v1/deployments/${deploymentId}/branches/staging/enable`,
    as: account.admin,
    body: {},
  });
  if (enable.status !== 200) throw new Error(`enable: ${enable.status} ${enable.text}`);
  await commitFiles(
    server.services,
    adminOf(account),
    deploymentId,
    { ...sampleModelFiles(), 'model/extra.yml': countCube('extra') },
    'staging',
  );
  await server.jobs.runUntilIdle();
  const listed = await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}/environments`, as: account.admin });
  const byType = (type: string) =>
    listed.body.data.find((e: { type: string }) => e.type === type) as { id: string; api_credentials: [{ url: string }] };
  return { ...set, production: byType('production'), staging: byType('staging') };
}

/** A token of one of the admin's environments (createDeploymentEnvironmentToken), with an empty security context. */
export async function environmentToken(account: TestAccount, deploymentId: number, environmentId: string): Promise<string> {
  const response = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${deploymentId}/environments/${environmentId}/tokens`,
    as: account.admin,
    body: { security_context: {} },
  });
  if (response.status !== 200) throw new Error(`environment token: ${response.status} ${response.text}`);
  return response.body.data.token as string;
}

/** A warehouse that counts executions and holds each query until `release` is called (or at once when open). */
export function gatedWarehouse(inner: Warehouse) {
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const counter = { executions: 0 };
  const warehouse: Warehouse = {
    dialect: inner.dialect,
    async query(sql: string, params: readonly unknown[], options?: QueryOptions) {
      counter.executions += 1;
      await gate;
      return inner.query(sql, params, options);
    },
    close: () => inner.close(),
  };
  return {
    warehouse,
    counter,
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

/**
 * The deployment's warehouse gated (gatedWarehouse), and opened so by each of `services` from now
 * on: their loads, asked by request context as a route asks, read through the gate.
 */
export async function gateWarehouse(services: DataApiService[], accountId: number, deploymentId: number) {
  const gated = gatedWarehouse(await services[0]!.warehouses.get(accountId, deploymentId));
  for (const service of services) vi.spyOn(service.warehouses, 'get').mockResolvedValue(gated.warehouse);
  return gated;
}

/** A service built by hand on the test server's store (the module is not served before the token verifier exists). */
export function serviceOn(server: TestServer, overrides: Record<string, unknown> = {}): DataApiService {
  const config = { ...server.config, ...overrides };
  return new DataApiService({
    store: server.store,
    db: server.store.db,
    config,
    secrets: undefined as never,
    egress: undefined as never,
    services: server.services,
  });
}
