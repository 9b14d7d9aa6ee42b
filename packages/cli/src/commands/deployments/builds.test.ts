import { expect, it } from 'vitest';
import { BROKEN_CUBE, countCube } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';

describeCli('plinth deployments build-status, build, builds', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  it('build-status prints the state of the head; --wait polls to built, telling each change on stderr', async () => {
    const { deploymentId, buildId, commitId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const once = await plinth(['deployments', 'build-status', String(deploymentId)], { env: env() });
    expect(once).toMatchObject({ code: 0, stdout: `main: building (build ${buildId}, commit ${commitId})\n` });
    const waited = await withRunner(ctx(), () =>
      plinth(['deployments', 'build-status', String(deploymentId), '--branch', 'main', '--wait', '--interval', '0.05'], { env: env() }),
    );
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toBe(`main: built (build ${buildId}, commit ${commitId}, 1 cube)\n`);
    expect(waited.stderr).toContain(`main: built (build ${buildId}`);
    const json = await plinth(['deployments', 'build-status', String(deploymentId), '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'built', buildId, cubesCount: 1, errors: [] });
  });

  it("--wait exits 1 on a failed build and prints the compiler's errors on stderr", async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/broken.yml': BROKEN_CUBE });
    const result = await withRunner(ctx(), () =>
      plinth(['deployments', 'build-status', String(deploymentId), '--wait', '--interval', '0.05'], { env: env() }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^model\/cubes\/broken\.yml(:\d+)*: /m);
    expect(result.stderr).toMatch(/error: Build \d+ of main failed\n$/);
  });

  it("4.8 rule 4: --branch '' is accepted alone and refused with --wait", async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const alone = await plinth(['deployments', 'build-status', String(deploymentId), '--branch', ''], { env: env() });
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(/^main: building/);
    const waiting = await plinth(['deployments', 'build-status', String(deploymentId), '--branch', '', '--wait'], { env: env() });
    expect(waiting.code).toBe(2);
    expect(waiting.stderr).toContain("error: --branch '' cannot be used with --wait: name the branch to wait for");
    const interval = await plinth(['deployments', 'build-status', String(deploymentId), '--wait', '--interval', 'soon'], { env: env() });
    expect(interval.code).toBe(2);
  });

  it('build queues a rebuild; builds lists them newest first; a missing branch is an error', async () => {
    const { deploymentId, buildId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const rebuilt = await plinth(['deployments', 'build', String(deploymentId), '--json'], { env: env() });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const fresh = JSON.parse(rebuilt.stdout);
    expect(fresh).toMatchObject({ status: 'building', trigger: 'rebuild' });
    const list = await plinth(['deployments', 'builds', String(deploymentId), '--first', '2'], { env: env() });
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+COMMIT\s+CUBES\s+ERRORS\s+TRIGGER/);
    expect(lines[1]).toMatch(new RegExp(`^${fresh.buildId}\\s+building`));
    expect(lines[2]).toMatch(new RegExp(`^${buildId}\\s+cancelled`));
    const missing = await plinth(['deployments', 'build', String(deploymentId), '--branch', 'nope'], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*nope.*\(HTTP 404\)/);
  });

  it('build-cancel cancels a queued build (then 409: already cancelled); build-get shows it', async () => {
    const { deploymentId, buildId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const cancelled = await plinth(['deployments', 'build-cancel', String(deploymentId), String(buildId)], { env: env() });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`^main: cancelled \\(build ${buildId},`));
    const again = await plinth(['deployments', 'build-cancel', String(deploymentId), String(buildId)], { env: env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error: Build ${buildId} is already cancelled`);
    const shown = await plinth(['deployments', 'build-get', String(deploymentId), String(buildId), '--json'], { env: env() });
    expect(JSON.parse(shown.stdout)).toMatchObject({ buildId, status: 'cancelled' });
    const missing = await plinth(['deployments', 'build-get', String(deploymentId), '999999'], { env: env() });
    expect(missing.code).toBe(1);
  });
});
