/** What other modules may use of embed: how long an embed token lives (retention keeps its session that long), and the audience that tells an embed token from a data API token. */
export { TOKEN_AUDIENCE, TOKEN_LIFETIME_SECONDS } from './tokens.js';
/** A token minted for one dashboard opens only that one (getDashboard). */
export { assertMayOpenDashboard } from './tokens.js';
/** The session insert of embed-tenants' one-statement page view. */
export { INSERT_SESSION } from './session-insert.js';
