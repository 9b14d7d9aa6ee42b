import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';

/**
 * Each deployment's data API secret: random, generated on the deployment's first token, stored
 * sealed, and kept in memory afterwards since it never changes and every data request needs it.
 * Keyed by account too, so a token naming another account's deployment finds no secret.
 */
export class DeploymentSecrets {
  private readonly keys = new Map<string, Uint8Array>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
  ) {}

  /** The secret to sign with, created if the deployment has none yet (first writer wins). */
  async key(accountId: number, deploymentId: number): Promise<Uint8Array> {
    const cached = this.keys.get(`${accountId}:${deploymentId}`);
    if (cached) return cached;
    const sealed = (await this.stored(accountId, deploymentId)) ?? (await this.create(accountId, deploymentId));
    return this.remember(accountId, deploymentId, sealed);
  }

  /** The secret to verify with, or null: verifying never creates one, so a forged token writes nothing. */
  async existing(accountId: number, deploymentId: number): Promise<Uint8Array | null> {
    const cached = this.keys.get(`${accountId}:${deploymentId}`);
    if (cached) return cached;
    const sealed = await this.stored(accountId, deploymentId);
    return sealed === null ? null : this.remember(accountId, deploymentId, sealed);
  }

  private async stored(accountId: number, deploymentId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('deployment_api_secret')
      .select('secret_sealed')
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .executeTakeFirst();
    return row?.secret_sealed ?? null;
  }

  private async create(accountId: number, deploymentId: number): Promise<string> {
    const sealed = this.secrets.seal(randomBytes(32).toString('base64url'));
    await sql`
      insert into deployment_api_secret (deployment_id, account_id, secret_sealed)
      values (${deploymentId}, ${accountId}, ${sealed})
      on conflict (deployment_id) do nothing`.execute(this.db);
    // Whichever secret won a race is the one stored.
    return (await this.stored(accountId, deploymentId))!;
  }

  private remember(accountId: number, deploymentId: number, sealed: string): Uint8Array {
    const key = new Uint8Array(Buffer.from(this.secrets.open(sealed), 'base64url'));
    this.keys.set(`${accountId}:${deploymentId}`, key);
    return key;
  }
}
