/**
 * What other modules may use of the data API beyond its service (whose `load`, `meta`, `sql`,
 * `dryRun` and `modelOf` take the pipeline's request context, so a report's refresh, a
 * notification, the chat and the SQL listener ask what a route asks): the target and options
 * those take, and the SQL API's translation to a Cube query (reports' `sqlQuery`).
 */
export type { CachedResult, DataTarget, LoadOptions } from './service.js';
export { translateSql } from './cubesql/translation.js';
