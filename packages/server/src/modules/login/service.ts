import type { Kysely } from 'kysely';
import type { UserPrincipal } from '../../http/principal.js';
import type { AccountRow, Database } from '../../store/schema.js';
import type { CredentialService } from '../credentials/service.js';
import type { RateLimitService } from '../rate-limits/service.js';
import type { UserService } from '../users/service.js';
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

  constructor(
    db: Kysely<Database>,
    private readonly credentials: CredentialService,
    private readonly users: UserService,
    rateLimits: RateLimitService,
  ) {
    this.tokens = new TokenService(db, credentials, users);
    this.device = new DeviceFlowService(db, this.tokens, rateLimits);
    this.signIn = new SignInService(users, rateLimits);
    this.invites = new InviteService(db, users);
  }

  /** `whoami`: the account, the user and the credential a request was authenticated with. */
  async describe(account: AccountRow, principal: UserPrincipal) {
    const user = await this.users.find(account.id, principal.userId);
    const key = principal.kind === 'apiKey' ? await this.credentials.describeApiKey(account.id, principal.credentialId) : undefined;
    return {
      account: { id: account.id, name: account.name },
      user: user ? { id: user.id, email: user.email, displayName: user.displayName } : null,
      credential: { kind: principal.kind, id: principal.credentialId, name: key?.name ?? null, prefix: key?.prefix ?? null },
      role: principal.role,
      deploymentIds: principal.deploymentIds && [...principal.deploymentIds],
    };
  }
}
