import { afterAll, expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { withRunner } from '../../test-support/cli-model.js';
import { disableCustomers, E2E_TIMEOUT, QUERY, removeRepos, shopOn } from './test-support/e2e-shop.js';
import { runGateScript } from './script-run.js';

/**
 * Issue 15's end-to-end test: a local Git repository holding the sample dbt project over the DuckDB
 * sample tables, a deployment whose dbt integration points at it, and the gate run with a key
 * holding exactly the four permissions of section 5 rule 5, by `plinth ci dbt-gate` and by
 * examples/ci/dbt-gate.sh.
 */
describeCli('the CI gate end to end (4.8 rule 8)', (ctx, home) => {
  const plinth = cliRunner(home);
  const shop = () => shopOn(ctx(), plinth);
  afterAll(removeRepos);

  it(
    'a good change passes: every step in order, dev mode exited, both branches deleted',
    async () => {
      const s = await shop();
      await s.repo.branch('feature/readme');
      await s.repo.commit({ 'README.md': '# shop\n\nThe sample shop, with a better README.\n' }, 'Docs only');
      const result = await withRunner(ctx(), () => s.gate('feature/readme', s.expected));
      expect(result.code, result.stderr).toBe(0);
      const doc = JSON.parse(result.stdout);
      expect(doc).toMatchObject({
        passed: true,
        failedStep: null,
        devModeExited: true,
        branchesDeleted: true,
        missing: [],
        unexpected: [],
      });
      expect(doc.generatedBranch).toMatch(/^dbt-feature-readme-\d{14}-[0-9a-f]{7}$/);
      expect(doc.devBranch).toMatch(/^dev-/);
      expect(doc.steps.map((step: { step: string }) => step.step)).toEqual([
        'lease',
        'sync',
        'dev-mode',
        'build',
        'token',
        'query',
        'exit-dev-mode',
        'delete-branches',
        'finish',
      ]);
      expect(result.stderr).toContain('[sync] generate: done');
      expect(result.stderr).toContain(`rows match --expect`);
      expect(await s.branchExists(doc.generatedBranch)).toBe(false);
      expect(await s.branchExists(doc.devBranch)).toBe(false);
      expect(JSON.parse(await s.devMode()).active).toBe(false);
    },
    E2E_TIMEOUT,
  );

  it(
    'a change that breaks the model fails at the sync naming the compiler error; the branch is kept',
    async () => {
      const s = await shop();
      await s.repo.branch('feature/drop-customers');
      await s.repo.commit(disableCustomers(), 'Disable customers');
      const result = await withRunner(ctx(), () => s.gate('feature/drop-customers', s.expected));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/error: gate failed at step "sync": .*model\/dbt\/orders\.yml[\s\S]*customers/);
      const doc = JSON.parse(result.stdout);
      expect(doc).toMatchObject({ passed: false, failedStep: 'sync', devModeExited: true, branchesDeleted: false, devBranch: null });
      expect(await s.branchExists(doc.generatedBranch)).toBe(true);
      expect(JSON.parse(await s.devMode()).active).toBe(false);
    },
    E2E_TIMEOUT,
  );

  it(
    'data that does not match --expect fails at the comparison, naming the rows; both branches are kept',
    async () => {
      const s = await shop();
      const wrong = s.expected.map((row, i) => (i === 0 ? { ...row, 'orders.count': row['orders.count'] + 1 } : row));
      const result = await withRunner(ctx(), () => s.gate('main', wrong));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('gate failed at step "compare": the data does not match --expect');
      expect(result.stderr).toContain('1 missing (expected, not returned) row:');
      const doc = JSON.parse(result.stdout);
      expect(doc).toMatchObject({ passed: false, failedStep: 'compare', devModeExited: true, branchesDeleted: false });
      expect(doc.missing).toEqual([wrong[0]]);
      expect(doc.unexpected).toHaveLength(1);
      expect(await s.branchExists(doc.generatedBranch)).toBe(true);
      expect(await s.branchExists(doc.devBranch)).toBe(true);
      expect(JSON.parse(await s.devMode()).active).toBe(false);
    },
    E2E_TIMEOUT,
  );

  it(
    'examples/ci/dbt-gate.sh does the same with curl and jq: passes and cleans up, or fails keeping the branch',
    async () => {
      const s = await shop();
      const env = { ...s.env, GATE_TIMEOUT: '120', GATE_POLL: '0.05' };
      const passed = await withRunner(ctx(), () =>
        runGateScript(env, { deploymentId: s.deploymentId, ref: 'main', query: QUERY, expect: s.expected }),
      );
      expect(passed.code, passed.stderr).toBe(0);
      expect(passed.stdout).toBe('Gate passed: ref main\n');
      const generated = /\[sync\] synced to branch (\S+)/.exec(passed.stderr)![1]!;
      expect(await s.branchExists(generated)).toBe(false);
      expect(passed.stderr).toContain('[exit-dev-mode] dev mode exited');

      await s.repo.branch('broken');
      await s.repo.commit(disableCustomers(), 'Disable customers');
      const failed = await withRunner(ctx(), () => runGateScript(env, { deploymentId: s.deploymentId, ref: 'broken', query: QUERY }));
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/\[sync\] FAILED: sync job \d+ failed: .*customers/s);
      expect(failed.stderr).toContain('Gate failed at step "sync"');
      expect(JSON.parse(await s.devMode()).active).toBe(false);
    },
    E2E_TIMEOUT,
  );
});
