/** What other modules may use of login: how long an expired sign-in row is kept (retention reads it). */
export { PURGE_GRACE_MS } from './repo.js';
