import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PostgresWarehouse, writeSample, type Warehouse } from '@plinth/semantic';
import type { ApiKeyPrincipal } from '../../http/principal.js';
import type { Services } from '../../services.js';

/**
 * A data model over the sample tables whose access policies cover each rule a credential must
 * reach the engine with: `member_level` includes and excludes, `row_level` filters on the security
 * context, on user attributes and per group, `conditions`, and the security context in model SQL.
 *
 * - customers: a signed `country` (data API and environment tokens) sees that country without
 *   `email`; group `sales` sees its `country` attribute's rows and only id, name, country, count;
 *   group `admin` sees everything when `clearance >= 3`; nobody else sees the cube.
 * - orders: `{SECURITY_CONTEXT.statuses.filter('status')}` in its SQL (every row without it).
 * - my_orders: `{SECURITY_CONTEXT.customer_id}` in its SQL, open only when that value is signed.
 * - products: group `books` sees the Books category, `admin` (clearance >= 3) every row.
 */
export function policiesModelYaml(schema?: string): string {
  const t = (name: string) => (schema ? `"${schema}".${name}` : name);
  const admin = `      - group: admin
        conditions:
          - if: "{ securityContext.clearance >= 3 }"`;
  return `cubes:
  - name: customers
    sql_table: '${t('customers')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: name, sql: name, type: string }
      - { name: email, sql: email, type: string }
      - { name: country, sql: country, type: string }
      - { name: segment, sql: segment, type: string }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        conditions:
          - if: "{ securityContext.country }"
        member_level:
          excludes: [email]
        row_level:
          filters:
            - { member: country, operator: equals, values: ["{ securityContext.country }"] }
      - group: sales
        member_level:
          includes: [id, name, country, count]
        row_level:
          filters:
            - { member: country, operator: equals, values: ["{ userAttributes.country }"] }
${admin}

  - name: orders
    sql: >
      SELECT * FROM ${t('orders')} WHERE {SECURITY_CONTEXT.statuses.filter('status')}
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: status, sql: status, type: string }
      - { name: customer_id, sql: customer_id, type: number }
    measures:
      - { name: count, type: count }

  - name: my_orders
    sql: >
      SELECT * FROM ${t('orders')} WHERE customer_id = {SECURITY_CONTEXT.customer_id}
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: status, sql: status, type: string }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        conditions:
          - if: "{ securityContext.customer_id }"

  - name: products
    sql_table: '${t('products')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: category, sql: category, type: string }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: books
        row_level:
          filters:
            - { member: category, operator: equals, values: [Books] }
${admin}
`;
}

export const policiesModelFiles = (schema?: string) => ({ 'model/policies.yml': policiesModelYaml(schema) });

/** Which warehouse a policy test's deployment reads: the embedded DuckDB, or a schema of its own in PostgreSQL `test`. */
export type WarehouseKind = 'duckdb' | 'postgres';
export const warehouseKinds: WarehouseKind[] = process.env.DATABASE_URL ? ['duckdb', 'postgres'] : ['duckdb'];

/** The sample's size: 100 customers over the sample's countries, 1,000 orders, 10 products. */
export const POLICY_SAMPLE = { lineItems: 4000 };

export interface PolicyWarehouse {
  /** Runs the hand-written SQL a policy's answer must equal. */
  truth(sql: (table: (name: string) => string) => string): Promise<Array<Record<string, unknown>>>;
  schema?: string;
  close(): Promise<void>;
}

/**
 * Points the deployment at its warehouse and writes the sample there: the embedded DuckDB as any
 * writer of it does (Warehouses.write), read back through the server's own instance, or a fresh
 * PostgreSQL schema named by the deployment's `CUBEJS_DB_*` variables. `ownFile` puts the DuckDB in
 * a file of its own under the account's directory, for servers whose data dir other test processes
 * share.
 */
export async function policyWarehouse(
  services: Services,
  admin: ApiKeyPrincipal,
  deploymentId: number,
  kind: WarehouseKind,
  ownFile = false,
): Promise<PolicyWarehouse> {
  if (kind === 'duckdb') {
    if (ownFile) {
      const dir = services.dataApi.warehouses.accountDir(admin.accountId);
      await mkdir(dir, { recursive: true });
      const path = join(dir, `policies-${randomBytes(5).toString('hex')}.duckdb`);
      const variables = [
        { name: 'CUBEJS_DB_TYPE', value: 'duckdb' },
        { name: 'CUBEJS_DB_DUCKDB_DATABASE_PATH', value: path },
      ];
      await services.deploymentVariables.set(admin.accountId, deploymentId, { variables });
    }
    const config = await services.deploymentVariables.warehouseConfig(admin.accountId, deploymentId);
    await services.dataApi.warehouses.write(admin.accountId, deploymentId, (warehouse) => writeSample(warehouse, POLICY_SAMPLE), config);
    const warehouse = await services.dataApi.warehouses.get(admin.accountId, deploymentId, config);
    return {
      truth: (sql) =>
        rowsOf(
          warehouse,
          sql((name) => name),
        ),
      close: async () => undefined,
    };
  }
  const url = new URL(process.env.DATABASE_URL!);
  const schema = `plinth_policies_${randomBytes(5).toString('hex')}`;
  const warehouse = new PostgresWarehouse({ connectionString: url.toString(), max: 2 });
  await writeSample(warehouse, { ...POLICY_SAMPLE, schema });
  const variables = [
    ['CUBEJS_DB_TYPE', 'postgres'],
    ['CUBEJS_DB_HOST', url.hostname],
    ['CUBEJS_DB_PORT', url.port || '5432'],
    ['CUBEJS_DB_NAME', decodeURIComponent(url.pathname.slice(1))],
    ['CUBEJS_DB_USER', decodeURIComponent(url.username)],
    ...(url.password ? [['CUBEJS_DB_PASS', decodeURIComponent(url.password)]] : []),
  ].map(([name, value]) => ({ name: name!, value: value! }));
  await services.deploymentVariables.set(admin.accountId, deploymentId, { variables });
  return {
    schema,
    truth: (sql) =>
      rowsOf(
        warehouse,
        sql((name) => `"${schema}".${name}`),
      ),
    close: async () => {
      await warehouse.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, []);
      await warehouse.close();
    },
  };
}

/** Every value as text: the data API answers numbers as Cube does, the warehouses each in their own types. */
async function rowsOf(warehouse: Warehouse, sql: string): Promise<Array<Record<string, unknown>>> {
  const result = await warehouse.query(sql, []);
  return result.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? null : String(v)])));
}
