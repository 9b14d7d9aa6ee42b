import { expect, it } from 'vitest';
import { sampleModelFiles } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { commitOn, deploymentWithModel, withRunner } from '../../test-support/cli-model.js';

describeCli('plinth meta', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  it("prints the cubes, views and members of the deploy branch's build; --json passes the body through", async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    await withRunner(ctx(), () => ctx().server.jobs.runUntilIdle());
    const result = await plinth(['meta', String(deploymentId)], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^cube customers\n/);
    expect(result.stdout).toMatch(/\n {2}measure +orders\.count +number\n/);
    const json = await plinth(['meta', String(deploymentId), '--json'], { env: env() });
    expect(JSON.parse(json.stdout).cubes.map((c: { name: string }) => c.name)).toContain('orders');
  });

  it('a deployment without a build, or a branch not served, fails with the server message', async () => {
    const { id } = await ctx().server.services.deployments.create(ctx().accountId, { name: 'e' }, ctx().url);
    const none = await plinth(['meta', String(id)], { env: env() });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/No successful build of branch main yet/);
    const branch = await plinth(['meta', String(id), '--branch', 'nope'], { env: env() });
    expect(branch.code).not.toBe(0);
  });

  it('--branch mints the token that branch opens: an enabled staging branch, one of your dev branches, main', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    const id = String(deploymentId);
    const ok = async (args: string[]) => {
      const result = await plinth(args, { env: env() });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    await ok(['data-model', 'create-branch', id, 'staging']);
    await ok(['data-model', 'enable-branch', id, 'staging']);
    const dev = JSON.parse(await ok(['data-model', 'dev-mode', id, 'main', '--json'])).branchName as string;
    const extra = 'cubes:\n  - name: extra\n    sql_table: extra\n    measures:\n      - name: count\n        type: count\n';
    await commitOn(ctx(), deploymentId, { ...sampleModelFiles(), 'model/extra.yml': extra }, 'staging');
    await commitOn(ctx(), deploymentId, sampleModelFiles(), dev);
    await withRunner(ctx(), () => ctx().server.jobs.runUntilIdle());
    expect(await ok(['meta', id, '--branch', 'staging'])).toMatch(/^cube extra$/m);
    expect(await ok(['meta', id, '--branch', dev])).toMatch(/^cube orders$/m);
    expect(await ok(['meta', id, '--branch', 'main'])).toMatch(/^cube orders$/m);
    const other = await plinth(['meta', id, '--branch', dev], { env: { ...env(), PLINTH_API_KEY: (await ctx().addUser('admin')).apiKey } });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(`Branch ${dev} not found`);
  });

  it('needs a credential that may mint a token (DeploymentUpdate)', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    const member = await plinth(['meta', String(deploymentId)], {
      env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().member.apiKey },
    });
    expect(member.code).not.toBe(0);
  });
});
