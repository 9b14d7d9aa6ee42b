/** Upload sessions of `plinth deploy` live this long; past it they are refused and the retention sweep deletes them. */
export const UPLOAD_SESSION_TTL_MS = 3600_000;

/**
 * Open upload sessions one account may hold at once: each keeps its manifest and uploaded files in
 * the store until it is finished or expires, so an unbounded number would let one tenant fill it.
 */
export const MAX_OPEN_UPLOADS = 50;
