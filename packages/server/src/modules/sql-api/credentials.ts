import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createScramSha256Data, type ScramSha256Data } from 'pg-gateway';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';

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

/** A branch as the credentials need it: each deployment environment is one. */
export interface BranchRef {
  id: number;
  account_id: number;
  deployment_id: number;
  name: string;
}

/** What is kept of a password: its SCRAM-SHA-256 verifier, and the password sealed. */
async function passwordSecret(box: SecretBox, password: string) {
  const scram = await createScramSha256Data(password);
  return {
    scram_salt: scram.salt,
    scram_iterations: scram.iterations,
    scram_stored_key: scram.storedKey,
    scram_server_key: scram.serverKey,
    password_sealed: box.seal(password),
  };
}
type PasswordSecret = Awaited<ReturnType<typeof passwordSecret>>;

/** The credential row of a branch, its SQL user named after it, with its password's secret parts. */
function rowOf(branch: BranchRef, secret: PasswordSecret) {
  const environmentId = String(branch.id);
  return {
    account_id: branch.account_id,
    deployment_id: branch.deployment_id,
    environment_id: environmentId,
    branch_name: branch.name,
    user_name: userOf(environmentId),
    ...secret,
  };
}

/**
 * The SQL API's credentials, one per branch (so one per deployment environment), made with the
 * branch, in its transaction, and never by a read: listing environments only reads them. The
 * password is kept as its SCRAM-SHA-256 verifier, which authentication uses, and sealed, for the
 * environments operations to show again.
 */
export class SqlCredentials {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  /** Makes the branch's credential unless it has one: two makers at once keep the first one's password. */
  async provision(branch: BranchRef): Promise<void> {
    await this.db
      .insertInto('sql_api_credential')
      .values(rowOf(branch, await passwordSecret(this.box, newPassword())))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The branch is gone: its SQL user with it, so no connection authenticates as it any more. */
  async remove(deploymentId: number, environmentId: string): Promise<void> {
    await this.db
      .deleteFrom('sql_api_credential')
      .where('deployment_id', '=', deploymentId)
      .where('environment_id', '=', environmentId)
      .execute();
  }

  /**
   * Of these branches, of any deployments, those that have no credential yet (made before
   * credentials came with their branches): one statement, on the (deployment, environment) index.
   */
  async without<B extends BranchRef>(branches: readonly B[]): Promise<B[]> {
    if (branches.length === 0) return [];
    const found = await this.db
      .selectFrom('sql_api_credential')
      .select(['deployment_id', 'environment_id'])
      .where('deployment_id', 'in', [...new Set(branches.map((b) => b.deployment_id))])
      .where(
        'environment_id',
        'in',
        branches.map((b) => String(b.id)),
      )
      .execute();
    const have = new Set(found.map((row) => `${row.deployment_id}/${row.environment_id}`));
    return branches.filter((b) => !have.has(`${b.deployment_id}/${b.id}`));
  }

  /** The credentials of these environments of a deployment: a read, nothing made. */
  async shown(accountId: number, deploymentId: number, environmentIds: readonly string[]): Promise<Map<string, SqlCredential>> {
    if (environmentIds.length === 0) return new Map();
    const rows = await this.rows(deploymentId, environmentIds);
    return new Map(
      rows
        .filter((row) => row.account_id === accountId)
        .map((row) => [row.environment_id, { user: row.user_name, password: this.box.open(row.password_sealed) }]),
    );
  }

  /**
   * A new password for the branch's SQL user, answered once; the user is made with it when the
   * branch has none yet (made before credentials came with branches, and not yet provisioned).
   * Authentication reads the verifier on every connection, so the old password is refused from
   * the next one on; sessions already open go on, as PostgreSQL's do after ALTER ROLE … PASSWORD.
   */
  async rotate(branch: BranchRef): Promise<SqlCredential> {
    const password = newPassword();
    const secret = await passwordSecret(this.box, password);
    const row = await this.db
      .insertInto('sql_api_credential')
      .values(rowOf(branch, secret))
      .onConflict((oc) => oc.columns(['deployment_id', 'environment_id']).doUpdateSet(secret))
      .returning('user_name')
      .executeTakeFirstOrThrow();
    return { user: row.user_name, password };
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
