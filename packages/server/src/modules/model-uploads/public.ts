/** Upload sessions of `plinth deploy` live this long; past it they are refused and the retention sweep deletes them. */
export const UPLOAD_SESSION_TTL_MS = 3600_000;
