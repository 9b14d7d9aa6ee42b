import { expect, it } from 'vitest';
import { BROKEN_CUBE, countCube } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { deploymentWithModel } from '../../test-support/cli-model.js';

describeCli('plinth validate', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  it('prints "Valid: N cubes" for a model that compiles; --json passes the answer through', async () => {
    const { deploymentId, commitId } = await deploymentWithModel(ctx(), {
      'model/cubes/a.yml': countCube('a'),
      'model/cubes/b.yml': countCube('b'),
    });
    const result = await plinth(['validate', String(deploymentId)], { env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'Valid: 2 cubes\n' });
    const json = await plinth(['validate', String(deploymentId), '--branch', '', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toEqual({ valid: true, errors: [], cubesCount: 2, branchName: 'main', commitId });
  });

  it("prints the compiler's errors one per line as file:line:column: message and exits 1", async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/broken.yml': BROKEN_CUBE });
    const result = await plinth(['validate', String(deploymentId), '--branch', 'main'], { env: env() });
    expect(result.code).toBe(1);
    for (const line of result.stdout.trim().split('\n')) expect(line).toMatch(/^model\/cubes\/broken\.yml(:\d+)*: \S/);
    expect(result.stderr).toMatch(/^error: The data model of branch main at commit \d+ has \d+ errors\n$/);
    const json = await plinth(['validate', String(deploymentId), '--json'], { env: env() });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).valid).toBe(false);
  });

  it('--dev-mode without a dev-mode session is refused with the way out', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const result = await plinth(['validate', String(deploymentId), '--dev-mode'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No dev-mode session is open for this credential; run plinth data-model dev-mode first');
    const usage = await plinth(['validate', 'abc'], { env: env() });
    expect(usage.code).toBe(2);
  });
});
