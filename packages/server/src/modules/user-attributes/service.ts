import type { Kysely, Updateable } from 'kysely';
import { toIso } from '../../http/common-schemas.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Page, PageQuery } from '../../http/pagination.js';
import { isUniqueViolation } from '../../store/executor.js';
import { transaction } from '../../store/transaction.js';
import type { AttributeType, Database, UserAttributeRow, UserAttributeTable } from '../../store/schema.js';
import { userNotFound, type UserService } from '../users/service.js';
import { ATTRIBUTE_NAME, attributeTypeLabel, checkAttributeValue, parseDefaultValue, type AttributeValue } from './check.js';
import { UserAttributeRepo } from './repo.js';

export { checkAttributeValue, parseDefaultValue, attributeTypeLabel, type AttributeValue } from './check.js';

export interface UserAttributeRecord {
  id: number;
  name: string;
  type: AttributeType;
  displayName: string | null;
  defaultValue: string | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewUserAttribute {
  name: string;
  type: AttributeType;
  displayName?: string | null;
  defaultValue?: string | null;
  description?: string | null;
}

/** `type` may be sent only to repeat the current one: a definition's type never changes. */
export interface UserAttributeChanges {
  type?: AttributeType;
  displayName?: string | null;
  defaultValue?: string | null;
  description?: string | null;
}

/** One entry of section 2.6: `null` clears the user's value. */
export interface AttributeValueInput {
  name: string;
  value: AttributeValue | null;
}

/**
 * Tenant-wide user attribute definitions and each user's values. Names are what data models refer
 * to (`{ userAttributes.<name> }`), so they are identifiers and unique per account.
 */
export class UserAttributeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserService,
  ) {}

  async get(accountId: number, id: number): Promise<UserAttributeRecord> {
    const row = await new UserAttributeRepo(this.db).find(accountId, id);
    if (!row) throw attributeNotFound(id);
    return toRecord(row);
  }

  /** The definitions among `names` that exist (any order); callers report the missing ones. */
  async findByNames(accountId: number, names: string[]): Promise<UserAttributeRecord[]> {
    return (await new UserAttributeRepo(this.db).findByNames(accountId, [...new Set(names)])).map(toRecord);
  }

  async list(accountId: number, query: PageQuery): Promise<Page<UserAttributeRecord>> {
    return new UserAttributeRepo(this.db).page(accountId, query, toRecord);
  }

  async create(accountId: number, input: NewUserAttribute): Promise<UserAttributeRecord> {
    if (!ATTRIBUTE_NAME.test(input.name)) {
      throw badRequest(`User attribute name "${input.name}" must be 1 to 100 letters, digits or underscores`);
    }
    checkDefault(input.type, input.defaultValue);
    return transaction(this.db, async (trx) => {
      const repo = new UserAttributeRepo(trx);
      if ((await repo.findByNames(accountId, [input.name])).length > 0) throw nameTaken(input.name);
      try {
        const row = await repo.insert({
          account_id: accountId,
          name: input.name,
          type: input.type,
          display_name: input.displayName ?? null,
          default_value: input.defaultValue ?? null,
          description: input.description ?? null,
        });
        return toRecord(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(input.name);
        throw error;
      }
    });
  }

  async update(accountId: number, id: number, input: UserAttributeChanges): Promise<UserAttributeRecord> {
    return transaction(this.db, async (trx) => {
      const repo = new UserAttributeRepo(trx);
      const current = await repo.find(accountId, id);
      if (!current) throw attributeNotFound(id);
      if (input.type !== undefined && input.type !== current.type) throw badRequest('cannot change type');
      checkDefault(current.type, input.defaultValue);
      const changes: Updateable<UserAttributeTable> = {};
      if (input.displayName !== undefined) changes.display_name = input.displayName;
      if (input.defaultValue !== undefined) changes.default_value = input.defaultValue;
      if (input.description !== undefined) changes.description = input.description;
      return toRecord((await repo.update(accountId, id, changes))!);
    });
  }

  /** Every user's value of the attribute goes with it. */
  async delete(accountId: number, id: number): Promise<void> {
    if (!(await new UserAttributeRepo(this.db).delete(accountId, id))) throw attributeNotFound(id);
  }

  /**
   * Section 2.6 for one user: all of `values` or none. Names not supplied keep their values;
   * `null` clears one. Checks run before any write: duplicates, then unknown names, then types.
   */
  async setValues(accountId: number, userId: number, values: AttributeValueInput[]): Promise<AttributeValueInput[]> {
    const names = values.map((v) => v.name);
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate !== undefined) throw badRequest(`Duplicate user attribute name "${duplicate}" in one request`);
    return transaction(this.db, async (trx) => {
      if (!(await this.users.find(accountId, userId))) throw userNotFound(userId);
      const repo = new UserAttributeRepo(trx);
      const definitions = new Map((await repo.findByNames(accountId, names)).map((d) => [d.name, d]));
      if (definitions.size < new Set(names).size) throw badRequest('User attributes not found');
      for (const { name, value } of values) {
        const { type } = definitions.get(name)!;
        if (value !== null && !checkAttributeValue(type, value)) {
          throw badRequest(`User attribute "${name}" has type ${type}: its value must be ${attributeTypeLabel[type]} or null`);
        }
      }
      for (const { name, value } of values) {
        const { id } = definitions.get(name)!;
        if (value === null) await repo.clearValue(accountId, userId, id);
        else await repo.putValue(accountId, userId, id, value);
      }
      return this.getValues(accountId, userId);
    });
  }

  /** The user's stored values (definitions' defaults are not filled in), in definition order. */
  async getValues(accountId: number, userId: number): Promise<AttributeValueInput[]> {
    if (!(await this.users.find(accountId, userId))) throw userNotFound(userId);
    const rows = await new UserAttributeRepo(this.db).values(accountId, userId);
    return rows.map((r) => ({ name: r.name, value: r.value as AttributeValue }));
  }
}

export const attributeNotFound = (id: number) => notFound(`User attribute ${id} not found`);
const nameTaken = (name: string) => conflict(`A user attribute named "${name}" already exists`);

function checkDefault(type: AttributeType, defaultValue: string | null | undefined) {
  if (defaultValue == null || parseDefaultValue(type, defaultValue) !== undefined) return;
  throw badRequest(`defaultValue "${defaultValue}" does not fit type ${type}: it must be ${defaultLabel[type]}`);
}

const defaultLabel: Record<AttributeType, string> = {
  string: 'a string',
  number: 'a finite number, e.g. "42"',
  string_array: 'a JSON array of strings, e.g. ["a","b"]',
  number_array: 'a JSON array of numbers, e.g. [1,2]',
};

function toRecord(row: UserAttributeRow): UserAttributeRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    displayName: row.display_name,
    defaultValue: row.default_value,
    description: row.description,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
