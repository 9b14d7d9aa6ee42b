/**
 * What other modules may use of embed-tenants: its service and the types and rules of its
 * requests. Everything else in this folder is internal; embed reaches it through EmbedTenantService.
 */
export type { AccountRef, Definitions, EmbedTenantService } from './service.js';
export type { Catalog } from './external-user-repo.js';
export type { ExternalUserChange } from './external-users.js';
export type { ExistingUserSession } from './page-view.js';
export { assertNoDuplicates, checkEmail, checkPicture, normaliseExternalId } from './rules.js';
export { GroupNames } from './schemas.js';
export { embedTenantName, keepSigningSecret, signingSecret } from './signing-secret.js';
