import type { Ok, Schema } from '@plinth/api-client';
import type { HttpClient } from './http.js';

/** How long the tokens `load`, `meta` and `sql` mint for themselves live: one command's worth. */
const EXPIRES_IN_SECONDS = 300;

type Environment = Schema<'DeploymentEnvironment'>;

/**
 * A short-lived data API token that opens `branch` (the deploy branch when none is named), minted
 * with the caller's credential, and the data API's path on the deployment for that branch.
 *
 * The server opens a branch only to a token minted for it, so the kind of token depends on the
 * branch, as the caller's environments list tells: production's is a plain `deploymentToken`,
 * one of the caller's dev branches a `deploymentToken` with `branch`, an enabled staging branch an
 * environment token. A branch that is none of these still gets a `deploymentToken` with `branch`,
 * whose refusal (no such branch, not a dev-mode branch) is the server's own message naming it.
 */
export async function dataApiToken(
  client: HttpClient,
  deployment: number,
  branch: string | undefined,
): Promise<{ token: string; base: string }> {
  const named = branch !== undefined && branch !== '';
  const base = dataApiBase(deployment, branch);
  const environment = named ? await environmentOf(client, deployment, branch) : undefined;
  if (environment?.type === 'staging') {
    const created = await client.request<Ok<'/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens', 'post'>>(
      'POST',
      `/api/v1/deployments/${deployment}/environments/${environment.id}/tokens`,
      { body: { security_context: {}, expires_in: EXPIRES_IN_SECONDS } },
    );
    return { token: created.data.data.token, base };
  }
  const forBranch = named && environment?.type !== 'production' ? { branch } : {};
  const minted = await client.request<Ok<'/api/v1/deployments/{deploymentId}/token', 'post'>>(
    'POST',
    `/api/v1/deployments/${deployment}/token`,
    {
      body: { ...forBranch, expiresIn: EXPIRES_IN_SECONDS },
    },
  );
  return { token: minted.data.cubeApiToken, base };
}

/** The data API's path on the deployment: the deploy branch's, or a branch's dev-mode URL. */
export function dataApiBase(deployment: number, branch: string | undefined): string {
  return `/d/${deployment}${branch ? `/dev-mode/${encodeURIComponent(branch)}` : ''}/cubejs-api/v1`;
}

async function environmentOf(client: HttpClient, deployment: number, branch: string): Promise<Environment | undefined> {
  const listed = await client.request<Ok<'/api/v1/deployments/{deploymentId}/environments', 'get'>>(
    'GET',
    `/api/v1/deployments/${deployment}/environments`,
    {
      query: { limit: 1000 },
    },
  );
  return listed.data.data.find((environment) => environment.branch === branch);
}
