/**
 * What other modules use of the GitHub module: how a repository named by an installation, or by a
 * URL with credentials in it, is checked, stored and reached (dbt's connect and sync take
 * repositories exactly as `github connect` does). The App's client itself is the service's.
 */
export { checkInstallationRepository } from './rules.js';
export { splitCredentials, withCloneAccess, withoutCredentials, type CloneRemote, type RepositoryAccess } from './source.js';
