import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { DEFAULT_BRANCH } from '../data-model/public.js';
import type { ModelBranchRow } from '../../store/schema.js';
import { INVALID_TOKEN } from './caller.js';

/** What serving needs of a branch's row: which branch it is, and whether the data API serves it. */
export type ServedBranch = Pick<ModelBranchRow, 'id' | 'kind' | 'always_active' | 'is_default'>;

/**
 * The branch a token was minted for, as its environment (the branch's id): an environment
 * token's, and a `deploymentToken` minted with `branch` names its branch the same way. Undefined
 * for every other credential (a production data API token, an embed token, an internal user's),
 * which reaches the deploy branch only.
 */
export function environmentOf(principal: Principal): string | undefined {
  return principal.kind === 'dataToken' ? principal.claims.environment : undefined;
}

/**
 * A token opens exactly the branch it was minted for, whichever URL names it (`/d/{id}` and
 * `/d/{id}/dev-mode/main` are both the deploy branch). Any other branch is a 403 whether or not it
 * exists, so a token tells its holder nothing of other branches (another credential's dev branches
 * among them): a deploy-branch token looks nothing up, an environment token's lookup only compares
 * the branch named with its own. Only its own branch can then be a 404, once it is no longer served
 * (a staging environment disabled since the token was minted).
 */
export async function assertReaches(principal: Principal, name: string, rowOf: () => Promise<ServedBranch | undefined>): Promise<void> {
  const environment = environmentOf(principal);
  if (environment === undefined) {
    if (name !== DEFAULT_BRANCH) throw wrongBranch(principal, name);
    return;
  }
  const row = await rowOf();
  if (row === undefined || String(row.id) !== environment) throw wrongBranch(principal, name);
  if (row.kind !== 'dev' && !row.always_active && !row.is_default) {
    throw new ApiError('not_found', `Branch ${name} is neither a dev branch nor an enabled staging branch`);
  }
}

/**
 * Cube's 403 `Invalid token`, saying which branch was asked for and which the token opens.
 * `extra.branch` marks the message as one the data API shows as written (routes.ts's renderer
 * shows every other refusal as the bare `Invalid token`).
 */
export function wrongBranch(principal: Principal, name: string): ApiError {
  const asked = name === DEFAULT_BRANCH ? `the deploy branch (${name})` : `branch ${name}`;
  const opens =
    environmentOf(principal) !== undefined
      ? 'this token opens only the branch it was minted for'
      : principal.kind === 'embedToken'
        ? 'an embed token opens the deploy branch only'
        : 'a data API token minted without a branch opens the deploy branch only; mint one for this branch (deploymentToken with branch, or an environment token)';
  return new ApiError('forbidden', `${INVALID_TOKEN} for ${asked}: ${opens}`, { branch: name });
}
