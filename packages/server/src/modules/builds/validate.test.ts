import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { adminOf, commitFiles, enterDevMode, newDeployment } from './test-fixtures.js';
import { BROKEN_CUBE, countCube } from '../../test-support/models.js';

const validate = (account: TestAccount, deploymentId: number, body: unknown) =>
  account.request({ method: 'POST', url: `/build/api/v1/deployments/${deploymentId}/validate`, as: account.admin, body });

describeOnStores('validate', (server) => {
  it('compiles the head of main and reports its cubes; records no build', async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    const { commitId } = await commitFiles(server().services, adminOf(account), deploymentId, { 'model/cubes/a.yml': countCube('a') });
    const response = await validate(account, deploymentId, {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ valid: true, errors: [], cubesCount: 1, branchName: 'main', commitId });
    const builds = await server().store.db.selectFrom('model_build').select('trigger').where('deployment_id', '=', deploymentId).execute();
    expect(builds.map((b) => b.trigger)).not.toContain('validate');
    await server().jobs.runUntilIdle();
  });

  it("reports the compiler's errors with their file", async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    await commitFiles(server().services, adminOf(account), deploymentId, { 'model/cubes/broken.yml': BROKEN_CUBE });
    const response = await validate(account, deploymentId, { branch: 'main' });
    expect(response.body.valid).toBe(false);
    expect(response.body.errors[0]).toMatchObject({ fileName: 'model/cubes/broken.yml', message: expect.any(String) });
    await server().jobs.runUntilIdle();
  });

  it('with devMode compiles the dev branch and records its build, which build status then reports', async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    await commitFiles(server().services, adminOf(account), deploymentId, { 'model/cubes/a.yml': countCube('a') });
    const dev = await enterDevMode(account, deploymentId);
    const response = await validate(account, deploymentId, { devMode: true });
    expect(response.body).toMatchObject({ valid: true, cubesCount: 1, branchName: dev });
    const status = await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}/build-status`, as: account.admin });
    expect(status.body).toMatchObject({ status: 'built', branchName: dev, trigger: 'validate', cubesCount: 1 });
    const logs = await server().store.db.selectFrom('build_log').selectAll().where('build_id', '=', status.body.buildId).execute();
    expect(logs[0]).toMatchObject({ source: 'dev', container: 'builder' });
    await server().jobs.runUntilIdle();
  });

  it.each([
    [{ devMode: true }, 400, 'No dev-mode session is open for this credential; run plinth data-model dev-mode first'],
    [{ branch: 'nope' }, 404, 'nope'],
    [{ devMode: 'yes' }, 400, 'devMode'],
    [{ other: 1 }, 400, 'other'],
  ])('refuses %j', async (body, status, message) => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(account);
    const response = await validate(account, deploymentId, body);
    expect(response.status).toBe(status);
    expect(response.body.error).toContain(message);
    await server().jobs.runUntilIdle();
  });
});
