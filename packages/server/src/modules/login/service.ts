import type { Kysely } from 'kysely';
import type { Principal } from '../../http/principal.js';
import type { AccountRow, Database } from '../../store/schema.js';
import type { CredentialService } from '../credentials/service.js';
import { DeviceFlowService } from './device.js';
import { InviteService } from './invites.js';
import { SignInService } from './sign-in.js';
import { TokenService } from './tokens.js';

/** Everything the command-line login needs on the server, one service per concern. */
export class LoginService {
  readonly tokens: TokenService;
  readonly device: DeviceFlowService;
  readonly signIn: SignInService;
  readonly invites: InviteService;

  constructor(private readonly db: Kysely<Database>, credentials: CredentialService) {
    this.tokens = new TokenService(db, credentials);
    this.device = new DeviceFlowService(db, this.tokens);
    this.signIn = new SignInService(db);
    this.invites = new InviteService(db);
  }

  /** `whoami`: the account, the user and the credential a request was authenticated with. */
  async describe(account: AccountRow, principal: Principal) {
    const user =
      principal.userId === null
        ? undefined
        : await this.db
            .selectFrom('app_user')
            .select(['id', 'email', 'display_name'])
            .where('account_id', '=', account.id)
            .where('id', '=', principal.userId)
            .executeTakeFirst();
    const key =
      principal.kind === 'apiKey'
        ? await this.db.selectFrom('api_key').select(['name', 'key_prefix']).where('id', '=', principal.credentialId).executeTakeFirst()
        : undefined;
    return {
      account: { id: account.id, name: account.name },
      user: user ? { id: user.id, email: user.email, displayName: user.display_name } : null,
      credential: { kind: principal.kind, id: principal.credentialId, name: key?.name ?? null, prefix: key?.key_prefix ?? null },
      role: principal.role,
      deploymentIds: principal.deploymentIds,
    };
  }
}
