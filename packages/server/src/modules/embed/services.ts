import type { Kysely } from 'kysely';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import { EmbedProvisioningService } from '../embed-tenants/provisioning.js';
import { EmbedTenantService } from '../embed-tenants/service.js';
import { EmbedService, type EmbedServiceDeps } from './service.js';

export interface EmbedServices {
  embed: EmbedService;
  embedTenants: EmbedTenantService;
  embedProvisioning: EmbedProvisioningService;
}

/** Signed embedding's services, built on the identity services they call. */
export function createEmbedServices(
  db: Kysely<Database>,
  secrets: SecretBox,
  maxExternalUsers: number,
  deps: Omit<EmbedServiceDeps, 'embedTenants'>,
): EmbedServices {
  const embedTenants = new EmbedTenantService(db, deps.groups, deps.userAttributes, maxExternalUsers);
  return {
    embed: new EmbedService(db, secrets, { ...deps, embedTenants }),
    embedTenants,
    embedProvisioning: new EmbedProvisioningService(db, embedTenants, deps.tenantSettings),
  };
}
