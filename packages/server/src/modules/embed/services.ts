import type { SecretBox } from '../../lib/secrets.js';
import type { Store } from '../../store/store.js';
import { watchEmbedLookupChanges } from '../embed-tenants/invalidation.js';
import { EmbedLookups } from '../embed-tenants/lookups.js';
import { EmbedProvisioningService } from '../embed-tenants/provisioning.js';
import { EmbedTenantService } from '../embed-tenants/service.js';
import { EmbedService, type EmbedServiceDeps } from './service.js';

export interface EmbedServices {
  embed: EmbedService;
  embedTenants: EmbedTenantService;
  embedProvisioning: EmbedProvisioningService;
}

/** Signed embedding's services, built on the identity services they call, with their lookups kept fresh. */
export async function createEmbedServices(
  store: Store,
  secrets: SecretBox,
  maxExternalUsers: number,
  deps: Omit<EmbedServiceDeps, 'embedTenants'>,
): Promise<EmbedServices> {
  const { db } = store;
  const lookups = new EmbedLookups(deps);
  await watchEmbedLookupChanges(store, lookups);
  const embedTenants = new EmbedTenantService(db, lookups, maxExternalUsers);
  return {
    embed: new EmbedService(db, secrets, { ...deps, embedTenants }),
    embedTenants,
    embedProvisioning: new EmbedProvisioningService(db, embedTenants),
  };
}
