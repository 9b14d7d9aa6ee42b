import { resolve } from 'node:path';
import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import type { HttpClient } from '../../core/http.js';
import { id } from '../../core/rest.js';
import { planOf, readLocalModel } from './local-model.js';

/** Files in flight at once: enough to hide latency, few enough not to queue on the server. */
const PARALLEL_UPLOADS = 4;

export const verb = defineVerb({
  name: 'deploy',
  summary: 'Deploy the data model in a directory: upload the changed files and build once',
  description:
    'Reads every file under <dir>/model/ (dotfiles skipped), sends only those whose content the branch lacks, ' +
    'removes remote files deleted locally unless --keep-missing, and triggers exactly one build, even when nothing changed.\n' +
    'The branch defaults to your open dev-mode branch, else the deploy branch. An interrupted deploy leaves the branch as it was.\n' +
    'Prints the build id on stdout (the finish response with --json); follow it with `plinth deployments build-status <id> --wait`.',
  args: ['<deployment_id>'],
  options: [
    { flags: '--directory <dir>', description: 'The project folder holding model/', required: true },
    { flags: '-m, --message <message>', description: 'The commit message' },
    { flags: '--branch <name>', description: "The branch to deploy to ('' or omitted: dev-mode branch, else the deploy branch)" },
    { flags: '--keep-missing', description: 'Keep remote files that are missing locally' },
  ],
  examples: [
    'plinth deploy 42 --directory . -m "Add the orders cube"',
    'plinth deploy 42 --directory ./analytics --branch staging --keep-missing',
  ],
  async run(f, [deploymentArg], opts) {
    const deploymentId = id(deploymentArg, 'deployment_id');
    const local = await readLocalModel(resolve(opts.directory));
    const client = await f.client();
    const base = `/build/api/v1/deployments/${deploymentId}`;
    const keepMissing = opts.keepMissing === true;

    const remote = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/file-hashes', 'get'>>('GET', `${base}/file-hashes`, {
      query: { branch: opts.branch },
    });
    const plan = planOf(local, remote.data.hashes, keepMissing);
    f.output.notice(`${plan.changed} changed, ${plan.unchanged} unchanged, ${plan.toDelete} to delete`);

    const files = Object.fromEntries([...local].map(([path, { hash }]) => [path, hash]));
    const body = { branch: opts.branch, message: opts.message, keepMissing: keepMissing || undefined, files };
    const started = (
      await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/uploads', 'post'>>('POST', `${base}/uploads`, { body })
    ).data;
    const session = `${base}/uploads/${encodeURIComponent(started.uploadId)}`;
    try {
      await uploadAll(client, session, started.upload, (path) => local.get(path)!.content);
      const finished = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/uploads/{uploadId}/finish', 'post'>>(
        'POST',
        `${session}/finish`,
      );
      if (f.output.json) return f.output.raw(finished);
      const { added, modified, deleted, commitId, buildId, branchName } = finished.data;
      const what = finished.data.changed
        ? `commit ${commitId}: ${added.length} added, ${modified.length} modified, ${deleted.length} deleted`
        : `no change, commit ${commitId}`;
      f.output.notice(`Deployed to branch ${branchName} (${what}); build ${buildId} queued`);
      f.output.notice(`Follow it with: plinth deployments build-status ${deploymentId} --branch ${branchName} --wait`);
      f.output.data(String(buildId));
    } catch (error) {
      // Best effort: the branch is untouched either way, and an abandoned session expires.
      await client.request('DELETE', session, { allowErrors: true }).catch(() => undefined);
      throw error;
    }
  },
});

async function uploadAll(client: HttpClient, session: string, paths: string[], contentOf: (path: string) => string): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After one failure the others stop taking files: the deploy is over, the session is aborted.
    while (next < paths.length && !failed) {
      const path = paths[next++]!;
      await client.request('PUT', `${session}/files`, { body: { path, content: contentOf(path) } }).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, paths.length) }, worker));
}
