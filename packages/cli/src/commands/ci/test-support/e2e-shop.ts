import { expect } from 'vitest';
import { writeSample } from '@plinth/server/test-support';
import { createGitRepo, type TestGitRepo, sampleDbtProjectFiles } from '@plinth/server/test-support';
import type { cliRunner, CliServer } from '../../../test-support/harness.js';

export const QUERY = { measures: ['orders.count'], dimensions: ['orders.status'] };
export const E2E_TIMEOUT = 180_000;
const GATE_PERMISSIONS = ['SchemaUpdate', 'SchemaRead', 'SchemaUpdateDevBranches', 'DeploymentRead'];
const repos: TestGitRepo[] = [];

/** The breaking change of the sample project: disabling a model that another one joins. */
export function disableCustomers(): Record<string, string> {
  const sql = sampleDbtProjectFiles()['models/marts/customers.sql']!;
  return { 'models/marts/customers.sql': `{{ config(enabled=false) }}\n${sql}` };
}

export const removeRepos = () => Promise.all(repos.splice(0).map((repo) => repo.remove()));

/**
 * For issue 15's end-to-end tests: a deployment over the DuckDB sample tables whose dbt integration
 * points at a local Git repository holding the sample dbt project, the rows the query should
 * answer (computed from the warehouse), and the gate's own key holding exactly the four
 * permissions of section 5 rule 5 on that deployment.
 */
export async function shopOn(ctx: CliServer, plinth: ReturnType<typeof cliRunner>) {
  const { server, accountId } = ctx;
  const admin = { PLINTH_API_URL: ctx.url, PLINTH_API_KEY: ctx.admin.apiKey };
  const { id: deploymentId } = await server.services.deployments.create(accountId, { name: 'shop' }, ctx.url);
  const { warehouses } = server.services.dataApi;
  await warehouses.write(accountId, deploymentId, (warehouse) => writeSample(warehouse, { lineItems: 200 }));
  const counts = await (await warehouses.get(accountId, deploymentId)).query('SELECT status, count(*) AS n FROM orders GROUP BY 1', []);
  // Numbers, where the data API answers strings: the comparison is by value.
  const expected = counts.rows.map((r) => ({ 'orders.status': r['status'], 'orders.count': Number(r['n']) }));
  const repo = await createGitRepo(sampleDbtProjectFiles());
  repos.push(repo);
  const connected = await plinth(['dbt', 'connect', String(deploymentId), '--repo', repo.dir, '--branch', 'main'], { env: admin });
  expect(connected.code, connected.stderr).toBe(0);
  // The gate's own key, made as examples/ci/README.md says: exactly the four permissions of section 5 rule 5.
  const permissions = GATE_PERMISSIONS.flatMap((permission) => ['--permission', permission]);
  const key = ['api-keys', 'create', '--name', 'dbt-gate', ...permissions, '--deployment', String(deploymentId), '--json'];
  const created = await plinth(key, { env: admin });
  expect(created.code, created.stderr).toBe(0);
  expect([...JSON.parse(created.stdout).permissions].sort()).toEqual([...GATE_PERMISSIONS].sort());
  const gateKey = JSON.parse(created.stdout).key as string;
  const env = { PLINTH_API_URL: ctx.url, PLINTH_API_KEY: gateKey };
  const args = (ref: string, expect: unknown) => [
    'ci',
    'dbt-gate',
    String(deploymentId),
    '--ref',
    ref,
    '--query',
    JSON.stringify(QUERY),
    '--expect',
    JSON.stringify(expect),
    '--poll',
    '0.05',
    '--json',
  ];
  const gate = (ref: string, expect: unknown, options: Parameters<typeof plinth>[1] = {}) => plinth(args(ref, expect), { ...options, env });
  const branchExists = (name: string) =>
    server.services.dataModel.branch(accountId, deploymentId, name).then(
      () => true,
      () => false,
    );
  const devMode = async () => (await plinth(['api', 'GET', `/build/api/v1/deployments/${deploymentId}/dev-mode`], { env })).stdout;
  return { deploymentId, repo, expected, env, gate, branchExists, devMode };
}
