import type { Executor } from '../../store/executor.js';
import { AccountScopedRepo } from '../../store/account-scoped-repo.js';

/** oidc_token_config rows, always within one account. */
export class OidcTokenConfigRepo extends AccountScopedRepo<'oidc_token_config'> {
  constructor(db: Executor) {
    super(db, 'oidc_token_config', 'oidc-token-configs');
  }

  /** The enabled config of the account that trusts this issuer (at most one: issuers are unique per account). */
  enabledByIssuer(accountId: number, issuer: string) {
    return this.select(accountId).where('issuer', '=', issuer).where('enabled', '=', true).executeTakeFirst();
  }
}
