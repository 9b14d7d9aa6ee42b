import { expect, it } from 'vitest';
import { type ApiKeyPrincipal, countCube } from '@plinth/server/test-support';
import { describeCli, type CliServer } from '../../test-support/harness.js';
import { deploymentWithModel } from '../../test-support/cli-model.js';
import { runGateScript } from './script-run.js';

const adminKey = async (ctx: CliServer): Promise<ApiKeyPrincipal> => {
  const key = await ctx.server.store.db.selectFrom('api_key').select('id').where('user_id', '=', ctx.admin.id).executeTakeFirstOrThrow();
  return { kind: 'apiKey', accountId: ctx.accountId, credentialId: key.id, userId: ctx.admin.id, role: 'admin', deploymentIds: null };
};

/** examples/ci/dbt-gate.sh run for real (bash, curl, jq) against a listening server. */
describeCli('examples/ci/dbt-gate.sh', (ctx) => {
  const env = () => ({
    PLINTH_API_URL: ctx().url,
    PLINTH_API_KEY: ctx().admin.apiKey,
    GATE_WAIT: '0',
    GATE_TIMEOUT: '120',
    GATE_POLL: '0.05',
  });
  const query = { measures: ['a.count'] };

  it('refuses to run without its arguments and settings', async () => {
    const missing = await runGateScript({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: 'x' }, { deploymentId: 1, ref: '', query });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the ref is empty');
  });

  it("a run of the same key holding the lease: fails at the lease, leaving that run's dev mode alone", async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const principal = await adminKey(ctx());
    const holder = await ctx().server.services.ciGate.start(principal, deploymentId, { ref: 'other' });
    await ctx().server.services.dataModel.devMode.enter(principal, deploymentId, 'main');
    const result = await runGateScript(env(), { deploymentId, ref: 'main', query });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`[lease] FAILED: HTTP 409`);
    expect(result.stderr).toContain(`CI run ${holder.runId} (ref "other"`);
    expect((await ctx().server.services.dataModel.devMode.status(principal, deploymentId)).active).toBe(true);
  });

  it('a failed sync: the trap exits dev mode, keeps nothing it did not make, and finishes the lease', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const principal = await adminKey(ctx());
    await ctx().server.services.dataModel.devMode.enter(principal, deploymentId, 'main');
    const result = await runGateScript(env(), { deploymentId, ref: 'main', query });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('[sync] FAILED');
    expect(result.stderr).toContain('[exit-dev-mode] dev mode exited');
    expect(result.stderr).toMatch(/\[finish\] run \d+ finished \(failed\)/);
    expect(result.stderr).toContain('Gate failed at step "sync"');
    expect((await ctx().server.services.dataModel.devMode.status(principal, deploymentId)).active).toBe(false);
    expect((await ctx().server.services.ciGate.start(principal, deploymentId, { ref: 'next', waitSeconds: 0 })).state).toBe('active');
  });
});
