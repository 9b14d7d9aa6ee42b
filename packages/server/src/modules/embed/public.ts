/** What other modules may use of embed: how long an embed token lives (retention keeps its session that long). */
export { TOKEN_LIFETIME_SECONDS } from './tokens.js';
