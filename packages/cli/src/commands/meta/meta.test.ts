import { expect, it } from 'vitest';
import { sampleModelFiles } from '../../../../semantic/src/index.js';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';

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

  it('needs a credential that may mint a token (DeploymentUpdate)', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    const member = await plinth(['meta', String(deploymentId)], {
      env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().member.apiKey },
    });
    expect(member.code).not.toBe(0);
  });
});
