import { ApiError } from '../../http/errors.js';
import type { DataTokenPrincipal } from '../../http/principal.js';
import { API_RESPONSE, newRequestId, type AuthenticatedContext } from '../../pipeline/context.js';
import type { RequestPipeline } from '../../pipeline/pipeline.js';
import type { AccountRow } from '../../store/schema.js';
import type { DataTarget } from '../data-api/public.js';
import type { SqlUser } from './credentials.js';
import { SqlFailure } from './errors.js';

/**
 * The user name that asks for a token as the password: a data API token or an embed token, which
 * the server must read whole to verify, so it is asked for in cleartext (over TLS when configured).
 * Every other user name is an environment's SQL user, authenticated by SCRAM-SHA-256.
 */
export const TOKEN_USER = 'token';

/** Who a connection acts as, and which deployment and branch it reads, once authenticated. */
export interface SqlCaller {
  context: AuthenticatedContext;
  target: DataTarget;
}

/** A database name is the deployment's: `<id>` or `<anything>-<id>`, as the environments operations show it. */
const DATABASE = /^(?:[A-Za-z0-9_.-]*-)?([1-9][0-9]{0,9})$/;

export const databaseOf = (deploymentId: number) => `deployment-${deploymentId}`;

export function deploymentOfDatabase(database: string): number {
  const id = Number(DATABASE.exec(database)?.[1] ?? NaN);
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) {
    throw new SqlFailure('3D000', `database "${database}" does not exist: connect to a deployment's database, deployment-<id>`);
  }
  return id;
}

/** The account serving a deployment, or the refusal to send (an unknown deployment reads as an unknown database). */
export async function accountOfDatabase(
  pipeline: RequestPipeline,
  database: string,
): Promise<{ account: AccountRow; deploymentId: number }> {
  const deploymentId = deploymentOfDatabase(database);
  const decided = await pipeline.tenancy.ofDeployment(deploymentId, database);
  if (decided instanceof ApiError) {
    if (decided.code === 'not_found') throw new SqlFailure('3D000', `database "${database}" does not exist`);
    throw new SqlFailure('28000', decided.message);
  }
  return { account: decided, deploymentId };
}

/**
 * A token's caller, verified by the pipeline as a data API request's token is. The token decides
 * the deployment: one minted for another deployment than the database named is refused.
 */
export async function tokenCaller(pipeline: RequestPipeline, account: AccountRow, deploymentId: number, token: string): Promise<SqlCaller> {
  const context = await pipeline.contextOfConnection(account, token, ['dataToken']);
  const { principal } = context;
  const minted = principal.kind === 'dataToken' || principal.kind === 'embedToken' ? principal.claims.deploymentId : undefined;
  if (minted !== deploymentId) throw new ApiError('forbidden', 'Invalid token');
  return { context, target: { deploymentId } };
}

/**
 * An environment's SQL user acts as that environment's token with an empty security context
 * would: the same branch (production's deploy branch, a staging or a dev branch), the same
 * policies, so the data API decides what it reads exactly as for the token.
 */
export function userCaller(account: AccountRow, user: SqlUser): SqlCaller {
  const principal: DataTokenPrincipal = {
    kind: 'dataToken',
    accountId: account.id,
    claims: { deploymentId: user.deploymentId, securityContext: {}, expiresAt: null, environment: user.environmentId },
  };
  const context: AuthenticatedContext = { requestId: newRequestId(), tenant: account, principal, policy: API_RESPONSE };
  return { context, target: { deploymentId: user.deploymentId, branch: user.branch } };
}
