import { writeSample } from '@plinth/semantic';
import { afterAll, expect, it } from 'vitest';
import type { TestGitRepo } from '../../git/test-repos.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { dataDirOverride, environmentToken } from '../data-api/test-fixtures.js';
import { connected, editFile, sampleDbtRepo, startSync, syncStatus } from './test-fixtures.js';

const repos: TestGitRepo[] = [];
afterAll(async () => Promise.all(repos.map((r) => r.remove())));
const repo = async (folder = '', options: { manifest?: boolean } = {}) => {
  const made = await sampleDbtRepo(folder, options);
  repos.push(made);
  return made;
};

const BRANCH = /^dbt-main-\d{14}-[0-9a-f]{7}$/;

async function branchNames(account: TestAccount, deploymentId: number): Promise<string[]> {
  const list = await account.request({ method: 'GET', url: `/build/api/v1/deployments/${deploymentId}/branches`, as: account.admin });
  return list.body.items.map((b: { name: string }) => b.name);
}

describeOnStores(
  'dbt sync',
  (server) => {
    it('syncs a dbt project from a local repository onto a new built branch whose cubes answer load (issue 15)', async () => {
      const source = await repo('analytics');
      const { account, deploymentId, base } = await connected(server(), source.dir, { folder: 'analytics' });
      const started = await startSync(account, base);
      expect(started.status, started.text).toBe(202);
      expect(started.body).toEqual({ syncJobId: expect.any(Number), status: 'QUEUED', ref: 'main' });
      const queued = await syncStatus(account, base, started.body.syncJobId);
      expect(queued.body).toMatchObject({ status: 'QUEUED', stage: null, branchName: null, files: [] });
      expect(queued.body.stages.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
        'clone:pending',
        'parse:pending',
        'generate:pending',
        'write:pending',
        'build:pending',
      ]);

      await server().jobs.runUntilIdle();
      const done = await syncStatus(account, base, started.body.syncJobId);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        status: 'COMPLETED',
        ref: 'main',
        commitSha: await source.head(),
        error: null,
        buildId: expect.any(Number),
        finishedAt: expect.any(String),
      });
      expect(done.body.branchName).toMatch(BRANCH);
      expect(done.body.branchName.endsWith((await source.head()).slice(0, 7))).toBe(true);
      expect(done.body.stages.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
      expect(done.body.stages.every((s: { startedAt: string; finishedAt: string }) => s.startedAt && s.finishedAt)).toBe(true);
      expect(done.body.stages[1].message).toContain('4 models');
      const files = done.body.files.map((f: { path: string; cube: string }) => `${f.path}=${f.cube}`);
      expect(files).toEqual(
        expect.arrayContaining(['model/dbt/orders.yml=orders', 'model/dbt/customers.yml=customers', 'model/dbt/line_items.yml=line_items']),
      );
      const result = await account.request({ method: 'GET', url: `${base}/syncs/${started.body.syncJobId}/result`, as: account.admin });
      expect(result.body).toEqual({
        syncJobId: started.body.syncJobId,
        status: 'COMPLETED',
        branchName: done.body.branchName,
        buildId: done.body.buildId,
        error: null,
        files: done.body.files,
      });

      // The generated branch is a shared branch, built with trigger dbt-sync, and serves the data API.
      expect(await branchNames(account, deploymentId)).toContain(done.body.branchName);
      const build = await account.request({
        method: 'GET',
        url: `/api/v1/deployments/${deploymentId}/build-status?branch=${done.body.branchName}`,
        as: account.admin,
      });
      expect(build.body).toMatchObject({ status: 'built', trigger: 'dbt-sync', cubesCount: 4 });
      await server().services.dataApi.warehouses.write(account.id, deploymentId, (warehouse) => writeSample(warehouse, { lineItems: 400 }));
      const enable = await account.request({
        method: 'POST',
        url: `/build/api/v1/deployments/${deploymentId}/branches/${done.body.branchName}/enable`,
        as: account.admin,
        body: {},
      });
      expect(enable.status, enable.text).toBe(200);
      // Its staging environment's token opens it; a production token opens the deploy branch only.
      const environments = await account.request({
        method: 'GET',
        url: `/api/v1/deployments/${deploymentId}/environments`,
        as: account.admin,
      });
      const staging = environments.body.data.find((e: { branch: string }) => e.branch === done.body.branchName);
      const token = await environmentToken(account, deploymentId, staging.id);
      const query = encodeURIComponent(JSON.stringify({ measures: ['orders.count'], dimensions: ['orders.status'] }));
      const load = await account.request({
        method: 'GET',
        url: `/d/${deploymentId}/dev-mode/${done.body.branchName}/cubejs-api/v1/load?query=${query}`,
        as: token,
      });
      expect(load.status, load.text).toBe(200);
      expect(load.body.data.length).toBeGreaterThan(0);
      expect(load.body.data.map((row: Record<string, unknown>) => row['orders.status'])).toContain('completed');
    });

    it('keeps the deploy branch files outside model/dbt/ and replaces what was under it', async () => {
      const source = await repo();
      const { account, deploymentId, base } = await connected(server(), source.dir);
      const principal = (await import('../builds/test-fixtures.js')).adminOf(account);
      const { commitFiles } = await import('../builds/test-fixtures.js');
      const { countCube } = await import('../../test-support/models.js');
      await commitFiles(server().services, principal, deploymentId, {
        'model/cubes/kept.yml': countCube('kept'),
        'model/dbt/stale.yml': countCube('stale'),
      });
      const started = await startSync(account, base);
      await server().jobs.runUntilIdle();
      const done = await syncStatus(account, base, started.body.syncJobId);
      const branch = await server().services.dataModel.branch(account.id, deploymentId, done.body.branchName);
      const paths = Object.keys(await server().services.dataModel.treeAt(account.id, branch.head_commit_id)).sort();
      expect(paths).toContain('model/cubes/kept.yml');
      expect(paths).not.toContain('model/dbt/stale.yml');
      expect(paths.filter((p) => p.startsWith('model/dbt/'))).toEqual(done.body.files.map((f: { path: string }) => f.path).sort());
    });

    it('an unknown measure type fails the sync at generate, naming the model and column, and leaves no branch', async () => {
      const source = await repo();
      await editFile(source, 'models/marts/_models.yml', (text) => text.replace('type: count_distinct', 'type: median'));
      await source.commit({}, 'median');
      const { account, deploymentId, base } = await connected(server(), source.dir);
      const before = await branchNames(account, deploymentId);
      const started = await startSync(account, base);
      await server().jobs.runUntilIdle();
      const failed = await syncStatus(account, base, started.body.syncJobId);
      expect(failed.body).toMatchObject({ status: 'FAILED', stage: 'generate', branchName: null, buildId: null });
      expect(failed.body.error).toContain('Model "orders", column "customer_id": unknown measure type "median"');
      expect(failed.body.stages.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'failed', 'skipped', 'skipped']);
      expect(await branchNames(account, deploymentId)).toEqual(before);
      const result = await account.request({ method: 'GET', url: `${base}/syncs/${started.body.syncJobId}/result`, as: account.admin });
      expect(result.body).toMatchObject({ status: 'FAILED', branchName: null, error: failed.body.error });
    });

    it('a relationship to a disabled model fails with the compiler error and keeps the branch', async () => {
      const source = await repo();
      await editFile(source, 'models/marts/customers.sql', (text) => `{{ config(enabled=false) }}\n${text}`);
      await source.commit({}, 'disable customers');
      const { account, deploymentId, base } = await connected(server(), source.dir);
      const started = await startSync(account, base);
      await server().jobs.runUntilIdle();
      const failed = await syncStatus(account, base, started.body.syncJobId);
      expect(failed.body).toMatchObject({ status: 'FAILED', stage: 'build', buildId: expect.any(Number) });
      expect(failed.body.branchName).toMatch(BRANCH);
      expect(failed.body.error).toContain('customers');
      expect(failed.body.error).toContain('model/dbt/orders.yml');
      expect(failed.body.stages.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'done', 'done', 'failed']);
      expect(failed.body.stages[2].message).toContain('customers (disabled)');
      expect(await branchNames(account, deploymentId)).toContain(failed.body.branchName);
    });

    it('reads target/manifest.json when the project has one, and says so at parse', async () => {
      const source = await repo('', { manifest: true });
      const { account, base } = await connected(server(), source.dir);
      const started = await startSync(account, base);
      await server().jobs.runUntilIdle();
      const done = await syncStatus(account, base, started.body.syncJobId);
      expect(done.body.status, done.body.error).toBe('COMPLETED');
      expect(done.body.stages[1].message).toContain('from target/manifest.json');
      expect(done.body.files).toContainEqual({ path: 'model/dbt/orders.yml', cube: 'orders' });
    });

    it('syncs a tag, and names the branch after it', async () => {
      const source = await repo();
      await source.tag('release/v1.2');
      const { account, base } = await connected(server(), source.dir);
      const started = await startSync(account, base, { ref: 'release/v1.2' });
      expect(started.body).toMatchObject({ status: 'QUEUED', ref: 'release/v1.2' });
      await server().jobs.runUntilIdle();
      const done = await syncStatus(account, base, started.body.syncJobId);
      expect(done.body.status).toBe('COMPLETED');
      expect(done.body.branchName).toMatch(/^dbt-release-v1\.2-\d{14}-[0-9a-f]{7}$/);
      expect(done.body.stages[0].message).toContain('tag release/v1.2');
    });
  },
  dataDirOverride(),
);
