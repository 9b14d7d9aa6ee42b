import type { SecretBox } from '../../lib/secrets.js';
import type { Store } from '../../store/store.js';
import { EmbedLookups } from '../embed-tenants/lookups.js';
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
  store: Store,
  secrets: SecretBox,
  maxExternalUsers: number,
  deps: Omit<EmbedServiceDeps, 'embedTenants'>,
): EmbedServices {
  const { db } = store;
  const lookups = new EmbedLookups(deps);
  const embedTenants = new EmbedTenantService(db, lookups, maxExternalUsers);
  return {
    embed: new EmbedService(db, secrets, { ...deps, embedTenants }),
    embedTenants,
    embedProvisioning: new EmbedProvisioningService(db, embedTenants),
  };
}
