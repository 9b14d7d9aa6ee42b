import { afterAll, expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { withRunner } from '../../test-support/cli-model.js';
import { E2E_TIMEOUT, QUERY, removeRepos, shopOn } from './test-support/e2e-shop.js';
import { runGateScript } from './script-run.js';

/** Issue 15: Ctrl-C or a cancelled CI job still leaves the credential out of dev mode and the lease finished. */
describeCli('the CI gate interrupted (4.8 rule 8)', (ctx, home) => {
  const plinth = cliRunner(home);
  const shop = () => shopOn(ctx(), plinth);
  afterAll(removeRepos);

  it(
    'Ctrl-C mid-run: the gate stops at the step it was in, exits dev mode, keeps the branches and finishes the lease',
    async () => {
      const s = await shop();
      const interrupt = new AbortController();
      const onStderr = (text: string) => {
        if (text.includes('[dev-mode] dev branch')) interrupt.abort();
      };
      const result = await withRunner(ctx(), () => s.gate('main', s.expected, { interrupt: interrupt.signal, onStderr }));
      expect(result.code).toBe(1);
      const doc = JSON.parse(result.stdout);
      expect(doc).toMatchObject({ passed: false, failedStep: 'build', devModeExited: true, branchesDeleted: false });
      expect(doc.error).toContain('interrupted by Ctrl-C or SIGINT');
      expect(result.stderr).toMatch(/\[finish\] run \d+ finished \(failed\)/);
      expect(await s.branchExists(doc.devBranch)).toBe(true);
      expect(JSON.parse(await s.devMode()).active).toBe(false);
    },
    E2E_TIMEOUT,
  );

  it(
    'SIGTERM to dbt-gate.sh mid-run: the trap exits dev mode and finishes the lease before the script ends',
    async () => {
      const s = await shop();
      const env = { ...s.env, GATE_TIMEOUT: '120', GATE_POLL: '0.05' };
      const args = { deploymentId: s.deploymentId, ref: 'main', query: QUERY, expect: s.expected };
      const result = await withRunner(ctx(), () => runGateScript(env, args, { when: '[dev-mode] dev branch', signal: 'SIGTERM' }));
      expect(result.code).toBe(143);
      expect(result.stderr).toContain('terminated (SIGTERM)');
      expect(result.stderr).toContain('[exit-dev-mode] dev mode exited');
      expect(result.stderr).toMatch(/\[finish\] run \d+ finished \(failed\)/);
      expect(JSON.parse(await s.devMode()).active).toBe(false);
    },
    E2E_TIMEOUT,
  );
});
