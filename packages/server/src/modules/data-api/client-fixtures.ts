import { sampleModelFiles } from '@plinth/semantic';
import { afterAll, beforeAll } from 'vitest';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';
import { policyWarehouse, warehouseKinds, type PolicyWarehouse, type WarehouseKind } from './policies-fixtures.js';

/**
 * Beside the sample model, what a Cube front end reads that the sample lacks: drill members (one
 * through a join), a `time` measure and a `min` over a time column, a hierarchy, and a view with
 * flat and nested folders that takes the hierarchy.
 */
export function explorerModelFiles(schema?: string): Record<string, string> {
  const table = schema ? `"${schema}".orders` : 'orders';
  return {
    'model/explorer.yml': `cubes:
  - name: order_facts
    sql_table: '${table}'
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers.id}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: status, sql: status, type: string }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - name: count
        type: count
        drill_members: [id, status, customers.country]
      - { name: last_order_at, type: time, sql: "MAX({CUBE}.created_at)" }
      - { name: first_order_at, type: min, sql: created_at }
    hierarchies:
      - name: by_status
        title: Status, then order
        levels: [status, id]
views:
  - name: order_explorer
    cubes:
      - join_path: order_facts
        includes: [count, last_order_at, status, id, by_status]
      - join_path: order_facts.customers
        prefix: true
        includes: [country, city]
    folders:
      - name: Figures
        includes: [count, last_order_at]
      - name: Where
        includes:
          - customers_country
          - name: City
            includes: [customers_city]
`,
  };
}

/** A deployment of the sample model, served over a real socket, and a data API token for it. */
export interface SocketDeployment {
  kind: WarehouseKind;
  deploymentId: number;
  /** `http://127.0.0.1:<port>/d/<id>/cubejs-api/v1`, as a Cube client is configured. */
  apiUrl: string;
  token: string;
  warehouse: PolicyWarehouse;
}

/**
 * A server listening on 127.0.0.1, whose one account answers there (its custom domain: neither
 * fetch nor @cubejs-client/core lets a caller choose the Host header), and a way to add to that
 * account a deployment of the sample model plus `extraFiles` on either warehouse.
 */
export async function listeningAccount(server: TestServer) {
  const account = await server.newAccount();
  await server.store.db.updateTable('account').set({ custom_domain: '127.0.0.1' }).where('id', '=', account.id).execute();
  server.services.accounts.forgetAll();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const opened: PolicyWarehouse[] = [];

  const deploy = async (kind: WarehouseKind, extraFiles: (schema?: string) => Record<string, string> = () => ({})) => {
    const deploymentId = await newDeployment(account);
    const warehouse = await policyWarehouse(server.services, adminOf(account), deploymentId, kind);
    opened.push(warehouse);
    await commitFiles(server.services, adminOf(account), deploymentId, {
      ...sampleModelFiles(warehouse.schema),
      ...extraFiles(warehouse.schema),
    });
    await server.jobs.runUntilIdle();
    const token = await mint(account, deploymentId);
    return { kind, deploymentId, apiUrl: `${origin}/d/${deploymentId}/cubejs-api/v1`, token, warehouse } satisfies SocketDeployment;
  };

  const close = async () => {
    // Cube's client and fetch keep their connections alive: app.close would wait for them to idle out.
    server.app.server.closeAllConnections();
    await Promise.all(opened.map((warehouse) => warehouse.close()));
  };
  return { account, origin, deploy, close };
}

/**
 * For a describeOnStores body: before its tests, a listening account with a deployment of the
 * sample model (plus `extraFiles`) on each warehouse kind; after them, its connections closed and
 * its warehouses dropped. The function returned gives the deployment on a kind.
 */
export function deploymentsPerWarehouse(server: () => TestServer, extraFiles?: (schema?: string) => Record<string, string>) {
  const deployments = new Map<WarehouseKind, SocketDeployment>();
  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const listening = await listeningAccount(server());
    close = listening.close;
    for (const kind of warehouseKinds) deployments.set(kind, await listening.deploy(kind, extraFiles));
  }, 300_000);
  afterAll(() => close());
  return (kind: WarehouseKind): SocketDeployment => deployments.get(kind)!;
}

async function mint(account: TestAccount, deploymentId: number): Promise<string> {
  const response = await account.request({ method: 'POST', url: `/api/v1/deployments/${deploymentId}/token`, as: account.admin, body: {} });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${response.text}`);
  return response.body.cubeApiToken as string;
}
