import type { Kysely, Updateable } from 'kysely';
import { toIso } from '../../http/common-schemas.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type Page, type PageQuery } from '../../http/pagination.js';
import { isUniqueViolation } from '../../store/executor.js';
import { transaction } from '../../store/transaction.js';
import { revokeCredentialsOfUser } from '../credentials/public.js';
import { endMembershipsOfUser } from '../groups/public.js';
import type { AppUserRow, AppUserTable, Database, Role, StoredEmail } from '../../store/schema.js';
import { UserRepo, type UserSearch } from './repo.js';

const USERS = byId('users');

/** An internal user as the other modules see it (the HTTP shape is a subset, see schemas.ts). */
export interface UserRecord {
  id: number;
  /** SCIM's string id of the user. */
  uuid: string;
  /** The sign-in address; null for a provisioned user without one. */
  email: string | null;
  /** SCIM's userName: what a SCIM client set, else the e-mail. */
  userName: string;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  /** The user's job title: SCIM's `title`, kept with the other SCIM attributes so both APIs see one value. */
  title: string | null;
  role: Role;
  active: boolean;
  /** When the user last signed in (to the minute); null if never. */
  lastLogin: string | null;
  /** Addresses a provisioning client sent, at most one primary; empty when none were. */
  emails: UserEmail[];
  /** Bumped on every change; SCIM's ETag. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface NewUser {
  /** The sign-in address; only SCIM creates users without one (they then have a userName). */
  email: string | null;
  /** SCIM's userName when it is not the e-mail; unique case-insensitively with the e-mails. */
  userName?: string | null;
  /** The rest of the SCIM core User and enterprise extension, stored as sent. */
  scimAttributes?: Record<string, unknown> | null;
  displayName?: string | null;
  givenName?: string | null;
  familyName?: string | null;
  externalId?: string | null;
  role?: Role;
  active?: boolean;
  /** Null or empty: none. The platform API leaves these alone; SCIM sets them. */
  emails?: UserEmail[] | null;
}

export type UserEmail = StoredEmail;
export const MAX_EMAILS = 20;

export type UserChanges = Partial<NewUser>;

/** What the platform API changes beyond SCIM's columns (SCIM sends these inside its attributes). */
export interface ProfileChanges {
  /** Stored as SCIM's `title` attribute, so both APIs see one value; null removes it. */
  title?: string | null;
}

export interface UserListQuery extends PageQuery {
  /** Exact address, compared case-insensitively. */
  email?: string;
}

// The "full" e-mail format of ajv-formats, so the service and the route schema agree on what is valid.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
export const MAX_EMAIL_LENGTH = 254;

export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email);
}

/**
 * Internal users of an account. An id of another account is as missing as an unknown one. The
 * account always keeps at least one active admin, so it can never lock itself out. Every method
 * takes the account first and, last, an optional executor to run inside the caller's transaction.
 */
export class UserService {
  constructor(private readonly db: Kysely<Database>) {}

  async get(accountId: number, id: number): Promise<UserRecord> {
    const row = await new UserRepo(this.db).find(accountId, id);
    if (!row) throw userNotFound(id);
    return toRecord(row);
  }

  async find(accountId: number, id: number): Promise<UserRecord | undefined> {
    const row = await new UserRepo(this.db).find(accountId, id);
    return row && toRecord(row);
  }

  async findByUuid(accountId: number, uuid: string): Promise<UserRecord | undefined> {
    // A malformed uuid would make PostgreSQL raise; it names no user either way.
    if (!UUID.test(uuid)) return undefined;
    const row = await new UserRepo(this.db).findByUuid(accountId, uuid);
    return row && toRecord(row);
  }

  async findByEmail(accountId: number, email: string): Promise<UserRecord | undefined> {
    const row = await new UserRepo(this.db).findByEmail(accountId, email.trim());
    return row && toRecord(row);
  }

  async findByExternalId(accountId: number, externalId: string): Promise<UserRecord | undefined> {
    const row = await new UserRepo(this.db).findByExternalId(accountId, externalId);
    return row && toRecord(row);
  }

  /** The users of `ids` that belong to the account, ordered by id; unknown ids are simply absent. */
  async getMany(accountId: number, ids: number[]): Promise<UserRecord[]> {
    return (await new UserRepo(this.db).many(accountId, [...new Set(ids)])).map(toRecord);
  }

  async list(accountId: number, query: UserListQuery): Promise<Page<UserRecord>> {
    const rows = await new UserRepo(this.db).list(
      accountId,
      decodeCursor(USERS, query.after)?.id,
      pageSize(query) + 1,
      query.email?.trim(),
    );
    return toPage(USERS, rows, query, toRecord);
  }

  /** Offset paging with a total, for SCIM's `startIndex`/`count`/`totalResults`. */
  async search(accountId: number, search: UserSearch): Promise<{ total: number; items: UserRecord[] }> {
    const { rows, total } = await new UserRepo(this.db).search(accountId, search);
    return { total, items: rows.map(toRecord) };
  }

  async create(accountId: number, input: NewUser & ProfileChanges): Promise<UserRecord> {
    const email = input.email === null ? null : checkEmail(input.email);
    if (email === null && !input.userName) throw badRequest('A user needs an email address or a userName');
    const emails = emailsColumn(input.emails);
    return transaction(this.db, async (trx) => {
      const repo = new UserRepo(trx);
      if (email !== null && (await repo.findByEmail(accountId, email))) throw emailTaken(email);
      const row = await uniqueEmail(email ?? input.userName!, () =>
        repo.insert({
          account_id: accountId,
          email,
          user_name: input.userName ?? null,
          scim_attributes: scimAttributesColumn(input.scimAttributes ?? null, input.title),
          display_name: input.displayName ?? null,
          given_name: input.givenName ?? null,
          family_name: input.familyName ?? null,
          external_id: input.externalId ?? null,
          role: input.role ?? 'member',
          active: input.active ?? true,
          emails,
        }),
      );
      return toRecord(row);
    });
  }

  async update(accountId: number, id: number, input: UserChanges & ProfileChanges): Promise<UserRecord> {
    const email = input.email === undefined || input.email === null ? input.email : checkEmail(input.email);
    const emails = input.emails === undefined ? undefined : emailsColumn(input.emails);
    return transaction(this.db, async (trx) => {
      const repo = new UserRepo(trx);
      const current = await repo.find(accountId, id);
      if (!current) throw userNotFound(id);
      if (current.role === 'admin' && current.active) {
        if (input.active === false) await assertAnotherAdmin(repo, accountId, id, 'deactivate');
        if (input.role === 'member') await assertAnotherAdmin(repo, accountId, id, 'demote');
      }
      if (email !== undefined && email !== null) {
        const holder = await repo.findByEmail(accountId, email);
        if (holder && holder.id !== id) throw emailTaken(email);
      }
      const changes: Updateable<AppUserTable> = {};
      if (email !== undefined) changes.email = email;
      if (input.userName !== undefined) changes.user_name = input.userName;
      if (input.scimAttributes !== undefined || input.title !== undefined) {
        const base = input.scimAttributes !== undefined ? input.scimAttributes : current.scim_attributes;
        changes.scim_attributes = scimAttributesColumn(base, input.title);
      }
      if (input.displayName !== undefined) changes.display_name = input.displayName;
      if (input.givenName !== undefined) changes.given_name = input.givenName;
      if (input.familyName !== undefined) changes.family_name = input.familyName;
      if (input.externalId !== undefined) changes.external_id = input.externalId;
      if (input.role !== undefined) changes.role = input.role;
      if (input.active !== undefined) changes.active = input.active;
      if (emails !== undefined) changes.emails = emails;
      const row = await uniqueEmail(input.userName ?? email ?? current.email ?? current.user_name!, () =>
        repo.update(accountId, id, changes),
      );
      return toRecord(row!);
    });
  }

  /** Deactivating stops the user's API keys and access tokens at once; reactivating restores them. */
  setActive(accountId: number, id: number, active: boolean): Promise<UserRecord> {
    return this.update(accountId, id, { active });
  }

  /**
   * The user an e-mail names, with the hash of their password, for signing in. The hash is never
   * part of a UserRecord, so no other path can hand it out by accident.
   */
  async findForSignIn(accountId: number, email: string) {
    const row = await new UserRepo(this.db).findByEmail(accountId, email.trim());
    return row && { user: toRecord(row), passwordHash: row.password_hash };
  }

  /** Stores a password hash computed by the login module (which owns the hashing scheme). */
  async setPasswordHash(accountId: number, id: number, passwordHash: string): Promise<void> {
    const row = await new UserRepo(this.db).update(accountId, id, { password_hash: passwordHash });
    if (!row) throw userNotFound(id);
  }

  /** Credentials, memberships and attribute values go with the user (foreign keys cascade). */
  async delete(accountId: number, id: number): Promise<void> {
    await transaction(this.db, async (trx) => {
      const repo = new UserRepo(trx);
      const current = await repo.find(accountId, id);
      if (!current) throw userNotFound(id);
      if (current.role === 'admin' && current.active) await assertAnotherAdmin(repo, accountId, id, 'delete');
      await repo.delete(accountId, id);
    });
  }

  /**
   * Takes a user out of service without erasing them (a SCIM delete): the user is deactivated and
   * hidden from every lookup, their API keys and access tokens are revoked with the reason, their
   * memberships end, and the row keeps who removed them, when and why. Their e-mail and userName
   * become free for a new user.
   */
  async retire(accountId: number, id: number, audit: { by: string; reason: string }): Promise<void> {
    await transaction(this.db, async (trx) => {
      const repo = new UserRepo(trx);
      const current = await repo.find(accountId, id);
      if (!current) throw userNotFound(id);
      if (current.role === 'admin' && current.active) await assertAnotherAdmin(repo, accountId, id, 'delete');
      await repo.retire(accountId, id, audit);
      await revokeCredentialsOfUser(trx, accountId, id, `User deleted by ${audit.by}: ${audit.reason}`);
      await endMembershipsOfUser(trx, accountId, id);
    });
  }

  /**
   * Notes that the user signed in. At most one write a minute per user: the condition makes a
   * burst of logins (or token refreshes) cost a single row update. Not a change of the user, so
   * neither `updatedAt` nor SCIM's version moves.
   */
  async recordLogin(accountId: number, id: number): Promise<void> {
    await new UserRepo(this.db).recordLogin(accountId, id);
  }

  /** Whether the user is the account's only active admin; rows are locked as for a demotion. */
  async isLastActiveAdmin(accountId: number, id: number): Promise<boolean> {
    const repo = new UserRepo(this.db);
    const current = await repo.find(accountId, id);
    if (!current || current.role !== 'admin' || !current.active) return false;
    return (await repo.otherActiveAdmins(accountId, id)) === 0;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const userNotFound = (id: number | string) => notFound(`User ${id} not found`);
const emailTaken = (email: string) => conflict(`A user with email ${email} already exists`);

function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!isValidEmail(email)) throw badRequest(`"${raw}" is not a valid email address`);
  return email;
}

async function assertAnotherAdmin(repo: UserRepo, accountId: number, id: number, action: string) {
  if ((await repo.otherActiveAdmins(accountId, id)) === 0) {
    throw conflict(`Cannot ${action} the last active admin of the account; make another user an active admin first`);
  }
}

/** The pre-check answers the common case; the unique index settles a race between two writers. */
async function uniqueEmail<T>(email: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(email);
    throw error;
  }
}

/** SCIM's attributes with the title laid over them (undefined: kept as it is; null: removed). */
function scimAttributesColumn(base: Record<string, unknown> | null, title: string | null | undefined): string | null {
  if (title === undefined || (title === null && base === null)) return base === null ? null : JSON.stringify(base);
  const attributes = { ...(base ?? {}) };
  if (title === null) delete attributes.title;
  else attributes.title = title;
  return JSON.stringify(attributes);
}

/** Validated before the transaction starts, like the address itself; stored as null when empty. */
function emailsColumn(emails: UserEmail[] | null | undefined): string | null {
  if (!emails || emails.length === 0) return null;
  if (emails.length > MAX_EMAILS) throw badRequest(`A user can have at most ${MAX_EMAILS} email addresses`);
  if (emails.filter((e) => e.primary === true).length > 1) throw badRequest('At most one email address can be primary');
  const clean = emails.map((e) => {
    if (typeof e.value !== 'string') throw badRequest('Each email address needs a value');
    const item: UserEmail = { value: checkEmail(e.value) };
    if (e.type !== undefined) item.type = e.type;
    if (e.primary !== undefined) item.primary = e.primary;
    if (e.display !== undefined) item.display = e.display;
    return item;
  });
  return JSON.stringify(clean);
}

export function toRecord(row: AppUserRow): UserRecord {
  return {
    id: row.id,
    uuid: row.uuid,
    email: row.email,
    userName: row.user_name ?? row.email ?? '',
    displayName: row.display_name,
    givenName: row.given_name,
    familyName: row.family_name,
    externalId: row.external_id,
    title: typeof row.scim_attributes?.title === 'string' ? row.scim_attributes.title : null,
    role: row.role,
    active: row.active,
    lastLogin: row.last_login_at ? toIso(row.last_login_at) : null,
    emails: row.emails ?? [],
    version: row.version,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
