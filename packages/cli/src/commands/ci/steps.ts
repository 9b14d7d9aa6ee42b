import type { Ok } from '@plinth/api-client';
import { errorLine, type BuildBody } from '../deployments/build-lines.js';
import { apiPath, buildPath, done, pauseOrStop, progress, StepError, type Gate } from './context.js';
import { loadRows } from './query.js';

/** Step 2: dev mode on the generated branch forks this credential's own dev branch of it. */
export async function enterDevMode(gate: Gate): Promise<void> {
  const { data } = await gate.client.request<Ok<'/build/api/v1/deployments/{deploymentId}/dev-mode', 'post'>>(
    'POST',
    buildPath(gate, '/dev-mode'),
    {
      body: { branch: gate.state.generatedBranch },
    },
  );
  gate.state.devBranch = data.branchName;
  done(gate, 'dev-mode', `dev branch ${data.branchName} forked from ${gate.state.generatedBranch}`);
}

/**
 * Step 3: waits for the dev branch's build. A fresh fork has none of its own (build status says
 * `dev_mode`), so the step asks for one first; a failed build fails the step with the compiler's errors.
 */
export async function waitForDevBuild(gate: Gate): Promise<void> {
  const branch = gate.state.devBranch!;
  const status = () => gate.client.request<BuildBody>('GET', apiPath(gate, '/build-status'), { query: { branch } });
  let build = (await status()).data;
  if (build.status === 'dev_mode') {
    build = (await gate.client.request<BuildBody>('POST', apiPath(gate, '/builds'), { body: { branch } })).data;
    progress(gate, 'build', `build ${build.buildId} of ${branch} queued`);
  }
  let last = '';
  while (build.status === 'building') {
    if (last !== build.status) progress(gate, 'build', `build ${build.buildId} of ${branch}: ${build.status}`);
    last = build.status;
    await pauseOrStop(gate, 'build', gate.pollMs, `the build of ${branch}`);
    build = (await status()).data;
  }
  gate.state.buildId = build.buildId;
  if (build.status !== 'built') {
    const errors = (build.errors ?? []).map(errorLine);
    throw new StepError(
      'build',
      `build ${build.buildId} of ${branch} ${build.status}${errors.length ? `:\n  ${errors.join('\n  ')}` : ''}`,
    );
  }
  done(gate, 'build', `build ${build.buildId} of ${branch} built (${build.cubesCount ?? 0} cubes)`);
}

/** Step 4: the deployment's URL, and a data API token that opens the dev branch's dev-mode URL only. */
export async function tokenFor(gate: Gate): Promise<{ deploymentUrl: string; token: string }> {
  const deployment = await gate.client.request<Ok<'/api/v1/deployments/{deploymentId}', 'get'>>('GET', apiPath(gate));
  const minted = await gate.client.request<Ok<'/api/v1/deployments/{deploymentId}/token', 'post'>>('POST', apiPath(gate, '/token'), {
    body: { branch: gate.state.devBranch, expiresIn: 3600 },
  });
  done(gate, 'token', `data API token for ${gate.state.devBranch} at ${deployment.data.deploymentUrl}`);
  return { deploymentUrl: deployment.data.deploymentUrl, token: minted.data.cubeApiToken };
}

/** Step 5: the query on the dev branch's data API, retried while the answer is `Continue wait`. */
export async function query(gate: Gate, at: { deploymentUrl: string; token: string }, cubeQuery: unknown): Promise<void> {
  const url = `${at.deploymentUrl.replace(/\/+$/, '')}/dev-mode/${encodeURIComponent(gate.state.devBranch!)}/cubejs-api/v1/load`;
  const rows = await loadRows(gate, url, at.token, cubeQuery, (ms) => pauseOrStop(gate, 'query', ms, 'the query'));
  gate.state.rows = rows;
  done(gate, 'query', `${rows.length} row${rows.length === 1 ? '' : 's'} from ${url}`);
}
