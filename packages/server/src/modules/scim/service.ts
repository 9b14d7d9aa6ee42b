import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { GroupService } from '../groups/service.js';
import type { TenantSettingsService } from '../tenant-settings/service.js';
import type { UserService } from '../users/service.js';
import { runBulk } from './bulk.js';
import {
  allResourceTypes,
  allSchemas,
  findResourceType,
  findSchema,
  resourceTypeResource,
  schemaResource,
  serviceProviderConfig,
} from './discovery.js';
import { notFound } from '../../http/errors.js';
import { URN } from './errors.js';
import { ScimGroupService } from './group-service.js';
import type { Meta } from './mappers.js';
import type { ListParams } from './list-params.js';
import { searchAll } from './root-search.js';
import { ScimUserService, type ScimContext } from './user-service.js';

/**
 * The SCIM 2.0 service provider (RFC 7643/7644): Users and Groups over the account's internal
 * users and tenant-wide groups, Bulk, and discovery. It owns no table of its own.
 */
export class ScimService {
  readonly users: ScimUserService;
  readonly groups: ScimGroupService;

  constructor(
    db: Kysely<Database>,
    private readonly deps: { users: UserService; groups: GroupService; tenantSettings: TenantSettingsService },
  ) {
    this.users = new ScimUserService(db, deps.users);
    this.groups = new ScimGroupService(db, deps.groups);
  }

  /** `bulk.maxOperations` is the account's bulkActionLimit tenant setting. */
  /** `maxPayloadSize` is the server's body limit, which the HTTP layer knows. */
  async serviceProviderConfig(ctx: ScimContext, maxPayloadSize: number) {
    const settings = await this.deps.tenantSettings.get(ctx.accountId);
    return serviceProviderConfig(ctx, settings.bulkActionLimit, maxPayloadSize);
  }

  async bulk(ctx: ScimContext, request: Parameters<typeof runBulk>[1]) {
    const settings = await this.deps.tenantSettings.get(ctx.accountId);
    return runBulk(ctx, request, this, settings.bulkActionLimit);
  }

  /** `POST /.search` at the root: users and groups in one ListResponse. */
  search(ctx: ScimContext, params: ListParams) {
    return searchAll(ctx, params, this);
  }

  resourceTypes(ctx: Meta) {
    return discoveryList(allResourceTypes.map((t) => resourceTypeResource(t, ctx)));
  }

  resourceType(ctx: Meta, id: string) {
    const type = findResourceType(id);
    if (!type) throw notFound(`Resource type ${id} not found`);
    return resourceTypeResource(type, ctx);
  }

  schemas(ctx: Meta) {
    return discoveryList(allSchemas.map((t) => schemaResource(t, ctx)));
  }

  schema(ctx: Meta, id: string) {
    const type = findSchema(id);
    if (!type) throw notFound(`Schema ${id} not found`);
    return schemaResource(type, ctx);
  }
}

function discoveryList<T>(resources: T[]) {
  return {
    schemas: [URN.listResponse],
    totalResults: resources.length,
    itemsPerPage: resources.length,
    startIndex: 1,
    Resources: resources,
  };
}
