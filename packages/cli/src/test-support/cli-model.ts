import { createJobRunner, commitFiles, type ApiKeyPrincipal } from '@plinth/server/test-support';
import type { CliServer } from './harness.js';

/** For the CLI tests of builds: a deployment whose main holds `files`, committed through the server's store. */
export async function deploymentWithModel(ctx: CliServer, files: Record<string, string>) {
  const deployment = await ctx.server.services.deployments.create(ctx.accountId, { name: 'd' }, ctx.url);
  const commit = await commitOn(ctx, deployment.id, files);
  return { deploymentId: deployment.id, ...commit };
}

/** Commits `files` as the whole tree of `branch` with the admin's key (a dev branch must be that key's). */
export async function commitOn(ctx: CliServer, deploymentId: number, files: Record<string, string>, branch = 'main') {
  const { server } = ctx;
  const key = await server.store.db.selectFrom('api_key').select('id').where('user_id', '=', ctx.admin.id).executeTakeFirstOrThrow();
  const principal: ApiKeyPrincipal = {
    kind: 'apiKey',
    accountId: ctx.accountId,
    credentialId: key.id,
    userId: ctx.admin.id,
    role: 'admin',
    deploymentIds: null,
  };
  return commitFiles(server.services, principal, deploymentId, files, branch);
}

/** The test server's job runner is never started; `--wait` needs builds to finish, so a test starts one. */
export async function withRunner<T>(ctx: CliServer, work: () => Promise<T>): Promise<T> {
  const { store, services, config } = ctx.server;
  const runner = createJobRunner({ store, services, config: { ...config, jobPollMs: 20 } });
  await runner.start();
  try {
    return await work();
  } finally {
    await runner.stop();
  }
}
