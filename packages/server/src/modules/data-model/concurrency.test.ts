import { expect, it } from 'vitest';
import type { Principal } from '../../http/principal.js';
import { createServices } from '../../services.js';
import { describeOnStores } from '../../test-support/server.js';
import { newDeployment } from './test-helpers.js';

/**
 * Two server processes sharing one store, as two sets of services on one database (on PostgreSQL
 * their transactions really run at once, from a pool): neither loses a commit nor makes a second
 * deploy branch.
 */
describeOnStores('data-model across processes', (server) => {
  const twoProcesses = async () => {
    const account = await server().newAccount();
    const deploymentId = await newDeployment(server(), account);
    const other = await createServices(server().store, server().config);
    const principal: Principal = {
      kind: 'apiKey',
      accountId: account.id,
      credentialId: account.admin.apiKeyId,
      userId: account.admin.id,
      role: 'admin',
      deploymentIds: null,
    };
    return { account, deploymentId, principal, processes: [server().services.dataModel, other.dataModel] };
  };

  it('the deploy branch is created once when processes race to create it', async () => {
    const { deploymentId, principal, processes } = await twoProcesses();
    const rows = await Promise.all(Array.from({ length: 8 }, (_, i) => processes[i % 2]!.target(principal, deploymentId)));
    expect(new Set(rows.map((row) => row.id)).size).toBe(1);
    const builds = await server()
      .store.db.selectFrom('model_build')
      .select('branch_name')
      .where('deployment_id', '=', deploymentId)
      .execute();
    expect(builds).toEqual([{ branch_name: 'main' }]);
  });

  it('commits racing on one branch all land: the loser of a compare-and-swap merges into the new head', async () => {
    const { account, deploymentId, principal, processes } = await twoProcesses();
    const main = await processes[0]!.target(principal, deploymentId);
    const hashes = await processes[0]!.storeBlobs(account.id, ['a', 'b', 'c', 'd', 'e', 'f']);
    const results = await Promise.all(
      hashes.map((hash, i) =>
        processes[i % 2]!.commitTree(principal, main, {
          entries: { [`model/f${i}.yml`]: hash },
          baseCommitId: main.head_commit_id,
          message: `f${i}`,
        }),
      ),
    );
    expect(results.every((r) => r.changed)).toBe(true);
    const head = (await processes[1]!.branch(account.id, deploymentId, 'main')).head_commit_id;
    expect(Object.keys(await processes[1]!.treeAt(account.id, head)).sort()).toEqual(hashes.map((_, i) => `model/f${i}.yml`));
    // One build per new commit on the shared branch, plus the root's.
    const commits = await processes[0]!.history.commits(principal, deploymentId, { branch: 'main' });
    expect(commits.items).toHaveLength(7);
  });

  it('conflicting commits racing on one file: one lands, the other is a 409 and writes nothing', async () => {
    const { account, deploymentId, principal, processes } = await twoProcesses();
    const main = await processes[0]!.target(principal, deploymentId);
    const [x, y] = await processes[0]!.storeBlobs(account.id, ['x', 'y']);
    const outcomes = await Promise.allSettled(
      [x!, y!].map((hash, i) =>
        processes[i]!.commitTree(principal, main, {
          entries: { 'model/same.yml': hash },
          baseCommitId: main.head_commit_id,
          message: 'same',
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409, extra: { conflicts: ['model/same.yml'] } });
  });
});
