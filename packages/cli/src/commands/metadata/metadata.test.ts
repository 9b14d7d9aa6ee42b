import { expect, it } from 'vitest';
import { sampleModelFiles } from '@plinth/server/test-support';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth metadata', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });

  it("prints what the selectors name of a deployment's build as the caller sees it; without --deployment, the first one", async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    await withRunner(ctx(), () => ctx().server.jobs.runUntilIdle());
    const d = String(deploymentId);
    const some = await plinth(['metadata', '--deployment', d, '-s', 'orders.count', '-s', 'sales'], { env: env(ctx().member.apiKey) });
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toMatch(new RegExp(`^deployment ${d}\\n\\ncube orders\\n {2}measure +orders\\.count +number\\n\\nview sales\\n`));
    const all = await plinth(['metadata', '--json'], { env: env() });
    expect(all.code, all.stderr).toBe(0);
    const body = JSON.parse(all.stdout);
    expect(body.cubes.map((c: { name: string }) => c.name)).toContain('customers');
    const unknown = await plinth(['metadata', '--deployment', d, '-s', 'nope'], { env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/"nope" is not a cube or view you may see/);
  });

  it('usage errors exit 2', async () => {
    const result = await plinth(['metadata', '--deployment', 'x'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--deployment must be a positive whole number/);
  });
});
