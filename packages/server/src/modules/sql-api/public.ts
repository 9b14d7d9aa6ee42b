/** What other modules may use of the SQL API: the environments operations show its credentials. */
export type { SqlCredential } from './credentials.js';
export { databaseOf, TOKEN_USER } from './callers.js';
