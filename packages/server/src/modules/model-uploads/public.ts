/** Upload sessions of `plinth deploy` live this long; past it they are refused and the retention sweep deletes them. */
export const UPLOAD_SESSION_TTL_MS = 3600_000;
/** Files one upload session may name (README, "Data model workflow"). */
export const MAX_UPLOAD_FILES = 5_000;
