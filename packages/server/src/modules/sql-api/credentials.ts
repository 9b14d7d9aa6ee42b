import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createScramSha256Data, type ScramSha256Data } from 'pg-gateway';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';

/** An environment as the environments operations list it: the branch it is. */
export interface EnvironmentRef {
  id: string;
  branch: string;
}

/** A SQL API credential as shown: who to connect as, with which password. */
export interface SqlCredential {
  user: string;
  password: string;
}

/** A SQL user as authentication finds it. */
export interface SqlUser {
  accountId: number;
  deploymentId: number;
  environmentId: string;
  branch: string;
  scram: ScramSha256Data;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 32 base62 characters: some 190 bits, typed once into a BI tool's connection form. */
function newPassword(): string {
  return [...randomBytes(32)].map((b) => BASE62[b % 62]).join('');
}

/** The SQL user of an environment: `env_<id>`, one per environment of the deployment. */
export const userOf = (environmentId: string) => `env_${environmentId}`;

/**
 * The SQL API's credentials, one per deployment environment, made the first time the environment
 * is listed. The password is kept as its SCRAM-SHA-256 verifier, which authentication uses, and
 * sealed, for the environments operations to show again.
 */
export class SqlCredentials {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  /** The credentials of these environments of a deployment, made for those that have none yet. */
  async ensure(accountId: number, deploymentId: number, environments: readonly EnvironmentRef[]): Promise<Map<string, SqlCredential>> {
    if (environments.length === 0) return new Map();
    const ids = environments.map((e) => e.id);
    const found = await this.rows(deploymentId, ids);
    const missing = environments.filter((e) => !found.some((row) => row.environment_id === e.id));
    for (const environment of missing) {
      const password = newPassword();
      const scram = await createScramSha256Data(password);
      await this.db
        .insertInto('sql_api_credential')
        .values({
          account_id: accountId,
          deployment_id: deploymentId,
          environment_id: environment.id,
          branch_name: environment.branch,
          user_name: userOf(environment.id),
          scram_salt: scram.salt,
          scram_iterations: scram.iterations,
          scram_stored_key: scram.storedKey,
          scram_server_key: scram.serverKey,
          password_sealed: this.box.seal(password),
        })
        // Two listings at once: the first one's password stands, and both show it.
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    const rows = missing.length > 0 ? await this.rows(deploymentId, ids) : found;
    return new Map(
      rows
        .filter((row) => row.account_id === accountId)
        .map((row) => [row.environment_id, { user: row.user_name, password: this.box.open(row.password_sealed) }]),
    );
  }

  private rows(deploymentId: number, environmentIds: readonly string[]) {
    return this.db
      .selectFrom('sql_api_credential')
      .select(['account_id', 'environment_id', 'user_name', 'password_sealed'])
      .where('deployment_id', '=', deploymentId)
      .where('environment_id', 'in', environmentIds)
      .execute();
  }

  /** The SQL user of that name in a deployment, if there is one. */
  async user(deploymentId: number, userName: string): Promise<SqlUser | undefined> {
    const row = await this.db
      .selectFrom('sql_api_credential')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .where('user_name', '=', userName)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      accountId: row.account_id,
      deploymentId: row.deployment_id,
      environmentId: row.environment_id,
      branch: row.branch_name,
      scram: { salt: row.scram_salt, iterations: row.scram_iterations, storedKey: row.scram_stored_key, serverKey: row.scram_server_key },
    };
  }
}
